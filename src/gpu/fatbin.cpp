#include "gpu/fatbin.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <vector>

#include "util/binary_file.hpp"
#include "util/elf.hpp"
#include "util/pe.hpp"

namespace cudaenv::gpu {

namespace {

struct FatbinHeader {
    uint32_t magic;
    uint16_t version, header_size;
    uint64_t entries_size;
};
static_assert(sizeof(FatbinHeader) == 16);

// The part of an entry header that is read (its header_size says how long it is).
struct EntryHeader {
    uint16_t kind, version;
    uint32_t header_size;
    uint64_t payload_size;
    uint32_t compressed_size, unknown1;
    uint16_t minor, major;
    uint32_t arch;
    uint32_t name_offset, name_size;
    uint64_t flags;
    uint64_t unknown2, uncompressed_size;
};
static_assert(sizeof(EntryHeader) == 64);

constexpr uint16_t kind_ptx = 1, kind_elf = 2;
constexpr uint64_t flag_lz4 = 0x2000, flag_zstd = 0x8000, flag_arch_specific = 0x100000, flag_family = 0x200000;
// Set on every entry of CUDA 13.0's libraries whose cubin is of ELF ABI 8
// (cuobjdump 13.0 names them by their architecture number alone).
constexpr uint64_t flag_abi8 = 0x1000000;
// The entry flags that may say something of the architecture: bits 16 and up.
// Known there: 0x100000 ("a"), 0x200000 ("f": CUDA 13.0's cuBLASLt has 1,133
// such sm_100 and sm_120 entries, which cuobjdump lists as plain sm_100 and
// sm_120, as it names family-specific code) and 0x1000000; another set there
// makes the entry's architecture unknown rather than wrongly plain.
constexpr uint64_t flags_of_arch = ~0xFFFFull, flags_known_arch = flag_arch_specific | flag_family | flag_abi8;
constexpr uint32_t max_header = 4096;

// The entry's architecture from its header, then from the payload itself where
// it can be read without decompressing: a cubin's ELF header, a PTX's .target.
Arch entry_arch(BinaryFile& f, const EntryHeader& e, uint64_t payload_at, bool compressed) {
    if ((e.flags & flags_of_arch & ~flags_known_arch) != 0) return Arch::unknown_value(e.flags);
    if (!Arch::known_sm(static_cast<int>(e.arch))) return Arch::unknown_value(e.arch);
    Arch arch{static_cast<int>(e.arch), (e.flags & flag_arch_specific) != 0};
    arch.family = !arch.specific && (e.flags & flag_family) != 0;
    if (compressed) return arch;
    if (e.kind == kind_elf && e.payload_size >= 64) {
        char head[64];
        if (f.read(payload_at, head, sizeof head))
            if (auto own = cubin_arch(std::string_view(head, sizeof head))) {
                // The cubin's header has no "f": the entry's flag keeps it.
                own->family = !own->unknown && !own->specific && arch.family;
                return *own;
            }
    } else if (e.kind == kind_ptx) {
        std::string text(static_cast<size_t>(std::min<uint64_t>(e.payload_size, 4096)), '\0');
        if (!text.empty() && f.read(payload_at, text.data(), text.size()))
            if (auto own = ptx_target(text)) return *own;
    }
    return arch;
}

std::string hex(uint64_t v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
    return "0x" + std::string(buf, r.ptr);
}

// The first byte at or after `at` that is not zero, rounded down to the 8-byte
// alignment of fatbins; `end` when only zeros follow. The linker pads between
// fatbins to their own alignment, which can be more than one header long.
uint64_t skip_zeros(BinaryFile& f, uint64_t at, uint64_t end, uint64_t base) {
    char buf[4096];
    while (at < end) {
        uint64_t n = std::min<uint64_t>(sizeof buf, end - at);
        if (!f.read(at, buf, n)) return end;
        for (uint64_t i = 0; i < n; ++i)
            if (buf[i] != 0) return at + i - (at + i - base) % 8;
        at += n;
    }
    return end;
}

// The entries of one fatbin, [at, end).
std::string read_entries(BinaryFile& f, uint64_t at, uint64_t end, Code& code) {
    while (at < end) {
        EntryHeader e{};
        if (end - at < sizeof e || !f.read_at(at, e)) return "a fatbin entry header at " + hex(at) + " is cut short";
        if (e.header_size < sizeof e || e.header_size > max_header || e.header_size > end - at)
            return "a fatbin entry at " + hex(at) + " has a header of " + std::to_string(e.header_size) + " bytes";
        if (e.payload_size > end - at - e.header_size)
            return "a fatbin entry at " + hex(at) + " claims " + std::to_string(e.payload_size) +
                   " bytes, more than its fatbin holds";
        if (e.arch > 9999) return "a fatbin entry at " + hex(at) + " names architecture " + std::to_string(e.arch);
        int total = 0;
        for (const auto& [a, n] : code.sass) total += n;
        for (const auto& [a, n] : code.ptx) total += n;
        if (total >= max_entries) return "more than " + std::to_string(max_entries) + " fatbin entries: not read further";
        const bool compressed = (e.flags & (flag_lz4 | flag_zstd)) != 0;
        const Arch arch = entry_arch(f, e, at + e.header_size, compressed);
        if (e.kind == kind_elf) {
            ++code.sass[arch];
            // An uncompressed cubin's section names say whether it has code; a few
            // small reads, and compressed entries (nearly all, with kernels) need none.
            if (!compressed && elf::has_text_section(f, at + e.header_size, e.payload_size) == false)
                ++code.kernel_less[arch];
        } else if (e.kind == kind_ptx) {
            ++code.ptx[arch];
            code.ptx_isa = std::max(code.ptx_isa, e.major * 10 + std::min<int>(e.minor, 9));
        }
        if (compressed) ++code.compressed;
        at += e.header_size + e.payload_size;
    }
    return {};
}

}  // namespace

std::map<Arch, int> Code::sass_with_kernels() const {
    std::map<Arch, int> out;
    for (const auto& [a, n] : sass) {
        auto k = kernel_less.find(a);
        if (int left = n - (k == kernel_less.end() ? 0 : k->second); left > 0) out[a] = left;
    }
    return out;
}

std::string Arch::sass_name() const {
    if (unknown) return "unknown (" + hex(raw) + ")";
    return "sm_" + std::to_string(sm) + (specific ? "a" : family ? "f" : "");
}
std::string Arch::ptx_name() const {
    if (unknown) return "unknown (" + hex(raw) + ")";
    return "compute_" + std::to_string(sm) + (specific ? "a" : family ? "f" : "");
}

bool Arch::known_sm(int sm) {
    // NVIDIA's real architectures, Fermi to Blackwell (CUDA C++ Programming
    // Guide, "Compute Capabilities"; CUDA 13.0 renamed sm_101 sm_110).
    static constexpr int known[] = {20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75,
                                    80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121};
    return std::find(std::begin(known), std::end(known), sm) != std::end(known);
}

std::optional<Arch> cubin_arch(std::string_view h) {
    constexpr uint16_t em_cuda = 190;
    if (h.size() < 64 || h.substr(0, 4) != "\x7f" "ELF" || h[4] != 2 /* ELFCLASS64 */) return std::nullopt;
    uint16_t machine = 0;
    uint32_t flags = 0;
    std::memcpy(&machine, h.data() + 18, sizeof machine);
    if (machine != em_cuda) return std::nullopt;
    std::memcpy(&flags, h.data() + 48, sizeof flags);
    const auto abi = static_cast<unsigned char>(h[8]);
    int sm = 0;
    bool a = false;
    if (abi <= 7) {
        // EF_CUDA_SM 0xff, TEXMODE 0x100/0x200, 64BIT_ADDRESS 0x400, ACCELERATORS 0x800, SW flag 0x1000, VIRTUAL_SM 0xff0000.
        if ((flags & ~0xFF1FFFu) != 0) return Arch::unknown_value(flags);
        sm = static_cast<int>(flags & 0xFF);
        a = (flags & 0x800) != 0;
    } else if (abi == 8) {
        // ACCELERATORS 0x8, the SM in 0xff00, VIRTUAL_SM 0xff0000; 0x4 (sm_75 to
        // sm_90), 0x2 (sm_100 and later) and the top byte (5 or 6) are set in CUDA
        // 13.0's own cubins (cuFFTW's, cuRAND's, CUPTI's, NPP's, as read on the H100).
        if ((flags & ~0xFFFFFF0Eu) != 0) return Arch::unknown_value(flags);
        sm = static_cast<int>((flags >> 8) & 0xFF);
        a = (flags & 0x8) != 0;
    } else {
        return Arch::unknown_value(flags);
    }
    if (!Arch::known_sm(sm)) return Arch::unknown_value(flags);
    return Arch{sm, a};
}

std::optional<Arch> ptx_target(std::string_view text) {
    text = text.substr(0, 4096);
    for (size_t at = text.find(".target"); at != std::string_view::npos; at = text.find(".target", at + 1)) {
        if (at > 0 && text[at - 1] != '\n' && text[at - 1] != ' ' && text[at - 1] != '\t') continue;
        auto rest = text.substr(at + 7);
        size_t i = 0;
        while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
        size_t end = i;
        while (end < rest.size() && rest[end] != ',' && rest[end] != '\n' && rest[end] != ' ' && rest[end] != '\r') ++end;
        auto word = rest.substr(i, end - i);
        if (!word.starts_with("sm_")) return std::nullopt;
        auto a = Arch::parse(word);
        if (!a) return Arch::unknown_value(0);
        if (!Arch::known_sm(a->sm)) return Arch::unknown_value(static_cast<uint64_t>(a->sm));
        return a;
    }
    return std::nullopt;
}
std::string Arch::cc() const { return std::to_string(major()) + "." + std::to_string(minor()); }

std::optional<Arch> Arch::parse(std::string_view t) {
    for (std::string_view p : {"compute_", "sm_", "sm"})
        if (t.starts_with(p)) {
            t.remove_prefix(p.size());
            break;
        }
    Arch a;
    if (t.ends_with("a")) {
        a.specific = true;
        t.remove_suffix(1);
    } else if (t.ends_with("f")) {
        a.family = true;
        t.remove_suffix(1);
    }
    int major = 0, minor = 0;
    if (auto dot = t.find('.'); dot != std::string_view::npos) {  // "9.0", "12.0"
        auto m = t.substr(0, dot), n = t.substr(dot + 1);
        if (n.size() != 1 || std::from_chars(m.data(), m.data() + m.size(), major).ptr != m.data() + m.size() ||
            std::from_chars(n.data(), n.data() + n.size(), minor).ptr != n.data() + n.size())
            return std::nullopt;
        a.sm = major * 10 + minor;
    } else if (std::from_chars(t.data(), t.data() + t.size(), a.sm).ptr != t.data() + t.size() || t.size() < 2) {
        return std::nullopt;
    }
    if (t.empty() || t.front() == '-' || t.front() == '+' || a.sm < 10 || a.sm > 999) return std::nullopt;
    return a;
}

std::string read_fatbins(BinaryFile& f, uint64_t offset, uint64_t size, Code& code) {
    if (offset > f.size() || size > f.size() - offset) return "the fatbin section lies past the end of the file";
    const uint64_t end = offset + size;
    uint64_t at = offset;
    // Every step below keeps at <= end, so end - at never wraps.
    while (at < end && end - at >= sizeof(FatbinHeader)) {
        FatbinHeader h{};
        if (!f.read_at(at, h)) return "a fatbin header at " + hex(at) + " lies past the end of the file";
        if (h.magic != fatbin_magic) {
            if ((at - offset) % 8) {  // fatbins are 8-byte aligned: skip the padding
                at = std::min(end, at + 8 - (at - offset) % 8);
                continue;
            }
            uint64_t next = skip_zeros(f, at, end, offset);
            if (next == end) return {};  // the section's padding
            if (next == at) return "the bytes at " + hex(at) + " are not a fatbin header";
            at = next;  // padding between two fatbins
            continue;
        }
        if (h.version != 1 || h.header_size < sizeof h || h.header_size > max_header || h.header_size > end - at)
            return "a fatbin header at " + hex(at) + " has version " + std::to_string(h.version) + " and size " +
                   std::to_string(h.header_size);
        if (h.entries_size > end - at - h.header_size)
            return "a fatbin at " + hex(at) + " claims " + std::to_string(h.entries_size) +
                   " bytes, more than its section holds";
        ++code.fatbins;
        auto problem = read_entries(f, at + h.header_size, at + h.header_size + h.entries_size, code);
        if (!problem.empty()) return problem;
        at += h.header_size + h.entries_size;
    }
    return {};
}

namespace {

// Data sections where a library keeps fatbins it loads itself (cuFFT 12 of
// CUDA 13: 11,255 fatbins of code in .ldata, beside one sm_75 entry in .nv_fatbin).
bool is_data_section(const std::string& name) {
    for (std::string_view d : {".rodata", ".ldata", ".lrodata", ".data", ".data.rel.ro", ".rdata"})
        if (name == d) return true;
    return false;
}

void add_code(Code& into, const Code& c) {
    for (const auto& [a, n] : c.sass) into.sass[a] += n;
    for (const auto& [a, n] : c.kernel_less) into.kernel_less[a] += n;
    for (const auto& [a, n] : c.ptx) into.ptx[a] += n;
    into.ptx_isa = std::max(into.ptx_isa, c.ptx_isa);
    into.fatbins += c.fatbins;
    into.compressed += c.compressed;
}

// Every fatbin inside [offset, offset + size), wherever it starts: a data
// section holds other data between them, so each magic found is taken only
// when a whole fatbin with well-formed entries follows it.
void read_embedded(BinaryFile& f, uint64_t offset, uint64_t size, Code& code) {
    if (offset > f.size() || size > f.size() - offset) return;
    const uint64_t end = offset + size;
    const char magic[4] = {'\x50', '\xed', '\x55', '\xba'};  // fatbin_magic, little-endian
    std::string buf(1 << 20, '\0');
    uint64_t buf_at = 0, buf_len = 0;  // the window of the section in `buf`
    uint64_t at = offset;
    while (end - at >= sizeof(FatbinHeader)) {
        // The next magic at or after `at`, in the window, read again only when
        // `at` leaves it (windows overlap by 3 bytes, so no magic is cut).
        if (buf_len == 0 || at < buf_at || at + 4 > buf_at + buf_len) {
            buf_len = std::min<uint64_t>(buf.size(), end - at);
            buf_at = at;
            if (!f.read(buf_at, buf.data(), buf_len)) return;
        }
        auto hit = std::string_view(buf.data(), buf_len).find(std::string_view(magic, 4), at - buf_at);
        if (hit == std::string_view::npos) {
            if (buf_at + buf_len == end) return;
            at = buf_at + buf_len - 3;
            continue;
        }
        at = buf_at + hit;
        FatbinHeader h{};
        Code one;
        bool whole = end - at >= sizeof h && f.read_at(at, h) && h.version == 1 && h.header_size >= sizeof h &&
                     h.header_size <= max_header && h.header_size <= end - at && h.entries_size > 0 &&
                     h.entries_size <= end - at - h.header_size &&
                     read_entries(f, at + h.header_size, at + h.header_size + h.entries_size, one).empty() &&
                     !one.empty();
        if (!whole) {
            ++at;
            continue;
        }
        one.fatbins = 1;
        add_code(code, one);
        int total = 0;
        for (const auto& [a, k] : code.sass) total += k;
        for (const auto& [a, k] : code.ptx) total += k;
        if (total >= max_entries) return;
        at += h.header_size + h.entries_size;
    }
}

}  // namespace

FileCode read_file(const std::filesystem::path& file) {
    FileCode out;
    std::vector<FileSection> found;  // sections that start with a fatbin
    std::vector<FileSection> data;   // data sections that may hold fatbins of the library's own
    auto elf = elf::sections(file);
    auto take = [&](const auto& list) {
        BinaryFile f(file);
        for (const auto& s : list) {
            // Relocatable device code (__nv_relfatbin; PE: "__nv_rel") is for nvlink at build
            // time, not loaded at run time: cuobjdump --list-elf leaves it out too.
            if (s.name.starts_with("__nv_rel")) continue;
            uint32_t m = 0;
            if (is_data_section(s.name))
                data.push_back(s);
            else if (s.size >= sizeof(FatbinHeader) && f.read_at(s.offset, m) && m == fatbin_magic)
                found.push_back(s);
        }
    };
    if (elf.recognised) {
        out.format = Format::elf;
        out.problem = elf.problem;
        take(elf.list);
    } else {
        auto pe = pe::sections(file);
        if (!pe.recognised) {
            BinaryFile f(file);
            out.problem = f.ok() ? "not an ELF or PE file" : "cannot be read";
            return out;
        }
        out.format = Format::pe;
        out.problem = pe.problem;
        take(pe.list);
    }
    if (!out.problem.empty()) return out;
    BinaryFile f(file);
    for (const auto& s : found) {
        Code code;
        auto problem = read_fatbins(f, s.offset, s.size, code);
        if (problem.empty()) {
            add_code(out.code, code);
        } else if (s.name == ".nv_fatbin" || s.name == ".nv_fatb") {
            out.problem = problem;  // the fatbin section itself is damaged
            return out;
        } else {
            // Another section that merely starts with a fatbin and holds other
            // data after it (CUDA 13.0's cuBLASLt: .cask_resource, 383 fatbins):
            // its fatbins are the library's own, as in a data section.
            data.push_back(s);
        }
    }
    for (const auto& s : data) read_embedded(f, s.offset, s.size, out.embedded);
    add_code(out.code, out.embedded);
    return out;
}

}  // namespace cudaenv::gpu
