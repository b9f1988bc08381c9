#!/usr/bin/env python3
"""Runs on the GPU machine (issue 25): where cudaenv's fatbin reader and
cuobjdump disagree on a library, and why. For each library: the fatbins of its
.nv_fatbin one by one (the zero padding between them and anything that is no
fatbin header), the fatbins the CUDA runtime registers (.nvFatBinSegment's
wrappers, through their R_X86_64_RELATIVE relocations), the SASS entries in
file order against `cuobjdump --list-elf`'s (their differences, with each
entry's fatbin, flags and size), and the uncompressed SASS entries whose cubin
has no .text section (stubs without kernels, docs/gpu.md), and the fatbins in
other sections (per section: how many, their entry kinds and SASS, and how
many are copies of a fatbin of .nv_fatbin). A Python reading of
the same layout src/gpu/fatbin.cpp reads, independent of it.

usage: gpu_fatbin_layout.py <cuobjdump> <library>..."""
import difflib, hashlib, re, struct, subprocess, sys, collections

MAGIC = 0xBA55ED50


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    secs = []
    for i in range(shnum):
        name, typ, flags, addr, off, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        secs.append([name, typ, addr, off, size])
    stro = secs[shstrndx][3]
    for s in secs:
        end = data.index(b"\0", stro + s[0])
        s[0] = data[stro + s[0]:end].decode()
    return {s[0]: s for s in secs}


def cubin_has_text(data, at, size):
    if size < 64 or data[at:at + 4] != b"\x7fELF" or data[at + 4] != 2:
        return None
    shoff, = struct.unpack_from("<Q", data, at + 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, at + 0x3A)
    if shstrndx >= shnum or shoff + shnum * 64 > size:
        return None
    h = at + shoff + shstrndx * shentsize
    off, sz = struct.unpack_from("<QQ", data, h + 24)
    tab = data[at + off:at + off + sz]
    names = [n.decode(errors="replace") for n in tab.split(b"\0") if n]
    return any(n == ".text" or n.startswith(".text.") for n in names), names


def walk(data, off, size, out):
    end = off + size
    at = off
    fat = []
    while at + 16 <= end:
        magic, ver, hsize, esize = struct.unpack_from("<IHHQ", data, at)
        if magic != MAGIC:
            z = at
            while z < end and data[z] == 0:
                z += 1
            if z >= end:
                break
            nz = z - (z - off) % 8
            out.append("gap of %d zero bytes at %#x, next nonzero at %#x -> %#x (%s)" %
                       (z - at, at, z, nz, data[nz:nz + 16].hex()))
            if struct.unpack_from("<I", data, nz)[0] != MAGIC:
                out.append("  NOT a fatbin at %#x: stop" % nz)
                break
            at = nz
            continue
        ents = []
        e = at + hsize
        eend = e + esize
        while e < eend:
            kind, ev, ehs, psize = struct.unpack_from("<HHIQ", data, e)
            minor, major, arch = struct.unpack_from("<HHI", data, e + 24)
            flags, = struct.unpack_from("<Q", data, e + 40)
            ents.append((kind, arch, flags, e + ehs, psize))
            e += ehs + psize
        fat.append((at, hsize, esize, ents))
        at += hsize + esize
    return fat


def elsewhere(data, secs, fat):
    """Fatbins whose header starts anywhere in a section other than .nv_fatbin:
    how many, how many lie inside another one found there (a magic in its
    payload), how many hold neither SASS nor PTX (which cudaenv does not count),
    the entry kinds, and how many are byte for byte a fatbin of .nv_fatbin."""
    known = set(hashlib.sha1(data[f[0]:f[0] + f[1] + f[2]]).digest() for f in fat)
    for name, (_, typ, addr, off, size) in secs.items():
        if name == ".nv_fatbin" or typ == 8 or size < 16:  # SHT_NOBITS has no bytes
            continue
        end = off + size
        at = data.find(struct.pack("<I", MAGIC), off, end)
        n = dup = nested = neither = 0
        outer_end = 0
        archs, kinds = collections.Counter(), collections.Counter()
        while at != -1:
            if at + 16 <= end:
                magic, ver, hsize, esize = struct.unpack_from("<IHHQ", data, at)
                if ver == 1 and hsize == 16 and at + hsize + esize <= end:
                    n += 1
                    nested += at < outer_end
                    outer_end = max(outer_end, at + hsize + esize)
                    dup += hashlib.sha1(data[at:at + hsize + esize]).digest() in known
                    e, eend = at + hsize, at + hsize + esize
                    code = False
                    while e + 48 <= eend:
                        kind, ev, ehs, psize = struct.unpack_from("<HHIQ", data, e)
                        arch, = struct.unpack_from("<I", data, e + 28)
                        flags, = struct.unpack_from("<Q", data, e + 40)
                        kinds[kind] += 1
                        code |= kind in (1, 2)
                        if kind == 2:
                            archs["sm_%d%s" % (arch, "a" if flags & 0x100000 else "")] += 1
                        if ehs == 0:
                            break
                        e += ehs + psize
                    neither += not code
            at = data.find(struct.pack("<I", MAGIC), at + 4, end)
        if n:
            print("  fatbins in %s (at %#x, size %#x): %d (inside another: %d; neither SASS nor PTX: %d), "
                  "%d also in .nv_fatbin; entry kinds %s; SASS %s" %
                  (name, off, size, n, nested, neither, dup, dict(sorted(kinds.items())), dict(sorted(archs.items()))))


def main(lib, cuobjdump):
    data = open(lib, "rb").read()
    s = sections(data)
    out = []
    nv = s.get(".nv_fatbin")
    fat = walk(data, nv[3], nv[4], out) if nv else []
    print("## %s: .nv_fatbin %s, %d fatbins walked" % (lib, "at %#x size %#x" % (nv[3], nv[4]) if nv else "absent", len(fat)))
    for l in out[:40]:
        print("  " + l)
    # registered fatbins: wrappers in .nvFatBinSegment and relocations pointing into .nv_fatbin
    seg = s.get(".nvFatBinSegment")
    if seg:
        n = seg[4] // 24
        print("  .nvFatBinSegment: %d wrappers (%d bytes)" % (n, seg[4]))
        rela = s.get(".rela.dyn")
        targets = []
        if rela:
            for i in range(rela[4] // 24):
                r_off, r_info, r_add = struct.unpack_from("<QQq", data, rela[3] + i * 24)
                if seg[2] <= r_off < seg[2] + seg[4] and (r_off - seg[2]) % 24 == 8 and (r_info & 0xffffffff) == 8:
                    targets.append(r_add)
        if nv:
            in_place = []
            for i in range(n):
                m, v, p, f = struct.unpack_from("<IIQQ", data, seg[3] + i * 24)
                in_place.append(p)
            reg = set(t - nv[2] + nv[3] for t in targets) | set(p - nv[2] + nv[3] for p in in_place if p)
            walked = set(f[0] for f in fat)
            print("  registered fatbins (relocs %d, in-place %d): %d; walked not registered: %d; registered not walked: %d" %
                  (len(targets), sum(1 for p in in_place if p), len(reg), len(walked - reg), len(reg - walked)))
            for a in sorted(walked - reg)[:10]:
                f = [x for x in fat if x[0] == a][0]
                print("    walked, not registered: %#x entries %s" % (a, [(k, ar, hex(fl)) for k, ar, fl, _, _ in f[3]]))
            for a in sorted(reg - walked)[:10]:
                print("    registered, not walked: %#x %s" % (a, data[a:a + 16].hex()))
    # cuobjdump per fatbin index
    co = subprocess.run([cuobjdump, "--list-elf", lib], capture_output=True, text=True).stdout
    theirs = []
    for line in co.splitlines():
        m = re.search(r"\.(\d+)\.(sm_\w+)\.cubin$", line)
        if m:
            theirs.append(m.group(2))
    ours, where = [], []
    for i, f in enumerate(fat):
        for k, ar, fl, p, ps in f[3]:
            if k == 2:
                ours.append("sm_%d%s" % (ar, "a" if fl & 0x100000 else ""))
                where.append((i, f[0], hex(fl), ps))
    print("  SASS entries in file order: walked %d, cuobjdump %d" % (len(ours), len(theirs)))
    sm = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    shown = 0
    for op, a1, a2, b1, b2 in sm.get_opcodes():
        if op == "equal" or shown >= 15:
            continue
        shown += 1
        print("  %s ours[%d:%d] %s theirs[%d:%d] %s" % (op, a1, a2, ours[a1:a2][:8], b1, b2, theirs[b1:b2][:8]))
        for j in range(a1, min(a2, a1 + 8)):
            print("     ours %d: fatbin #%d at %#x flags %s payload %d" % ((j,) + where[j]))
    # kernel-less SASS entries (uncompressed only)
    kl = collections.Counter()
    unc = 0
    samples = []
    for f in fat:
        for k, ar, fl, p, ps in f[3]:
            if k != 2 or fl & (0x2000 | 0x8000):
                continue
            unc += 1
            r = cubin_has_text(data, p, ps)
            if r and not r[0]:
                kl[ar] += 1
                if len(samples) < 3:
                    samples.append((ar, ps, r[1]))
    print("  uncompressed SASS entries: %d; without .text: %s %s" % (unc, dict(kl), samples))
    elsewhere(data, s, fat)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    for lib in sys.argv[2:]:
        try:
            main(lib, sys.argv[1])
        except Exception as e:
            print("## %s: %r" % (lib, e))
        sys.stdout.flush()
