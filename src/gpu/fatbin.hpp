#pragma once
// Reads which GPU code a binary carries, from the headers of the fatbins
// NVIDIA's tools embed in it: in an ELF file (Linux) the `.nv_fatbin`
// section, in a PE file (Windows) a section of its own whose 8-byte name is
// cut to `.nv_fatb` -- so a section is taken for what it starts with, the
// fatbin magic 0xBA55ED50, not for its name (except `__nv_relfatbin`, the
// relocatable device code that only nvlink reads). Only headers are read (a few
// dozen bytes per entry, never a payload, never decompressed), each read
// bounded by the file, the section and the fatbin it belongs to, so a huge
// library costs milliseconds and a damaged one is a finding, not a crash.
//
// The layout (docs/gpu.md has it with its sources): a fatbin header
// {u32 magic, u16 version = 1, u16 header size, u64 size of the entries},
// then entries, each {u16 kind (1 PTX, 2 ELF/SASS), u16 version, u32 header
// size, u64 payload size, ..., u16 minor at 24, u16 major at 26 (the PTX ISA
// version for PTX), u32 architecture at 28 (90 = sm_90), u64 flags at 40}.
// Flags: 0x2000 LZ4-compressed and 0x8000 zstd-compressed payload, 0x100000
// architecture-specific code (sm_90a: it runs on that architecture alone).
// An uncompressed cubin's own ELF header has the last word on its
// architecture (e_flags; docs/gpu.md), an uncompressed PTX's `.target` line
// on its own; a value or flag this reader does not know is reported as
// `unknown (0x...)`, never as a wrong known architecture.
#include <compare>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace cudaenv {
class BinaryFile;
}

namespace cudaenv::gpu {

inline constexpr uint32_t fatbin_magic = 0xBA55ED50;

// A GPU architecture as NVIDIA numbers it: 90 is compute capability 9.0;
// `specific` is the "a" of sm_90a (arch-specific features: that GPU only),
// `family` the "f" of compute_100f (family-specific: the GPUs of its major at
// or above its minor, 10.0 and 10.3). An encoding this reader does not know is
// kept `unknown`, with the raw value it read.
struct Arch {
    int sm = 0;
    bool specific = false;
    bool family = false;
    bool unknown = false;
    uint64_t raw = 0;  // unknown only: the architecture value or flags that were not understood
    auto operator<=>(const Arch&) const = default;
    int major() const { return sm / 10; }
    int minor() const { return sm % 10; }
    std::string sass_name() const;  // "sm_90a", "sm_100f", as cuobjdump names it; "unknown (0x...)"
    std::string ptx_name() const;   // "compute_90a"; "unknown (0x...)"
    std::string cc() const;         // "9.0"
    // "sm_90a", "sm_100f", "compute_90", "90", "9.0", "sm90"; nullopt otherwise.
    static std::optional<Arch> parse(std::string_view text);
    // An architecture NVIDIA has named (sm_20 ... sm_121), whatever its variant.
    static bool known_sm(int sm);
    static Arch unknown_value(uint64_t raw) { return Arch{0, false, false, true, raw}; }
};

// What a cubin (an ELF object of machine EM_CUDA) says of its own architecture
// in its header: e_ident[EI_ABIVERSION] 7 and older keep the SM in the low
// byte of e_flags with 0x800 for "a", ABI version 8 (Blackwell's, CUDA 12.8
// and later) in bits 8-15 with 0x8 for "a". nullopt when `header` (its first
// 64 bytes) is no CUDA ELF; an unknown Arch for a layout or flag not known.
std::optional<Arch> cubin_arch(std::string_view header);
// The architecture of a PTX text's `.target sm_XY[a|f]` line (its first 4 KiB); nullopt without one.
std::optional<Arch> ptx_target(std::string_view text);

// The GPU code of one binary: how many entries per architecture.
struct Code {
    std::map<Arch, int> sass, ptx;
    // The SASS entries (counted in `sass` too, as cuobjdump lists them) whose
    // cubin has no code section: CUDA's cuFFTW and NPP core libraries carry
    // one such sm_75 (CUDA 11: sm_52) stub and no kernel, and run on any GPU.
    // Only uncompressed entries are looked into; a compressed one counts as code.
    std::map<Arch, int> kernel_less;
    int ptx_isa = 0;      // the newest PTX ISA version, major*10+minor (78 = PTX 7.8); 0 without PTX
    int fatbins = 0;      // fatbin headers read
    int compressed = 0;   // entries whose payload is compressed
    bool empty() const { return sass.empty() && ptx.empty(); }  // no entry at all
    // The SASS that may hold kernels: `sass` less the entries without code.
    std::map<Arch, int> sass_with_kernels() const;
    // Anything a GPU has to run: PTX, or SASS with kernels. A binary without is
    // judged "no GPU code", like one with no fatbin.
    bool has_kernels() const { return !ptx.empty() || !sass_with_kernels().empty(); }
    bool operator==(const Code&) const = default;
};

// Limits on what one file may claim before it is a finding.
inline constexpr int max_entries = 1 << 20;

// Reads the fatbins that fill [offset, offset + size) of `file` into `code`.
// Returns "" or one line saying what is wrong (and stops there).
std::string read_fatbins(BinaryFile& file, uint64_t offset, uint64_t size, Code& code);

enum class Format { none, elf, pe };
struct FileCode {
    Format format = Format::none;
    Code code;      // all of it: what the verdicts judge
    Code embedded;  // the part found in data sections (the rest is what cuobjdump lists)
    std::string problem;  // "" or one line: not a binary, a damaged header, ...
};

// Reads an ELF or PE file's GPU code: the fatbin sections the CUDA runtime
// registers (what cuobjdump lists), and fatbins a library keeps in its data
// sections and loads itself (cuFFT in CUDA 13 keeps all its kernels in .ldata
// and an sm_75 stub in .nv_fatbin), found by their magic and taken only when
// whole. A file that is neither ELF nor PE is a problem.
FileCode read_file(const std::filesystem::path& file);

}  // namespace cudaenv::gpu
