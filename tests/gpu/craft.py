"""Crafted fatbins for the tests: the layout gpu/fatbin.hpp reads (docs/gpu.md),
written the way NVIDIA's fatbinary writes it, and put into real ELF and PE
files with objcopy, as nvcc and the Windows linker place them."""
import os
import shutil
import struct
import subprocess

MAGIC = 0xBA55ED50
ELF_KIND, PTX_KIND = 2, 1
F64, LINUX, LZ4, ZSTD, ARCH_SPECIFIC = 0x1, 0x10, 0x2000, 0x8000, 0x100000


def entry(kind, arch, flags=F64 | LINUX, ptx_isa=(8, 0), payload=b"x" * 40, header_size=72):
    major, minor = ptx_isa if kind == PTX_KIND else (1, 7)
    head = struct.pack("<HHIQ", kind, 0x101, header_size, len(payload)) + b"\0" * 8
    head += struct.pack("<HHI", minor, major, arch) + b"\0" * 8 + struct.pack("<Q", flags) + b"\0" * 16
    return head.ljust(header_size, b"\0") + payload


def fatbin(entries):
    body = b"".join(entries)
    return struct.pack("<IHHQ", MAGIC, 1, 16, len(body)) + body


def into_elf(blob, dest, section=".nv_fatbin", base=None):
    """A copy of `base` (/bin/true) with `blob` as its section `section`."""
    src = os.path.join(os.path.dirname(dest), "blob.bin")
    with open(src, "wb") as f:
        f.write(blob)
    subprocess.run(["objcopy", "--add-section", f"{section}={src}", "--set-section-flags",
                    f"{section}=alloc,readonly,data", base or shutil.which("true"), dest], check=True)
    return dest


def mingw_dll(dest_dir):
    """A tiny DLL built by the mingw-w64 cross compiler; None when there is none."""
    gcc = shutil.which("x86_64-w64-mingw32-gcc")
    if not gcc:
        return None
    src = os.path.join(dest_dir, "host.c")
    with open(src, "w") as f:
        f.write("int fatbin_host(void) { return 1; }\n")
    dll = os.path.join(dest_dir, "host.dll")
    subprocess.run([gcc, "-shared", "-o", dll, src], check=True)
    return dll


def into_pe(blob_file, dll, dest, section=".nv_fatb"):
    """`dll` with the fatbin bytes in a section of its own, as the Windows linker names it (8 bytes)."""
    subprocess.run(["x86_64-w64-mingw32-objcopy", "--add-section", f"{section}={blob_file}", "--set-section-flags",
                    f"{section}=contents,alloc,load,readonly,data", dll, dest], check=True, capture_output=True)
    return dest
