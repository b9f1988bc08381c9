// The GPU code reader (gpu/fatbin) on crafted fatbins, and Arch::parse.
#include <doctest/doctest.h>

#include "gpu/fatbin.hpp"

#include "gpu/code_cache.hpp"
#include "gpu_support.hpp"
#include "test_support.hpp"
#include "util/binary_file.hpp"
#include "util/error.hpp"

using namespace cudaenv;
using namespace cudaenv::gpu;
using testsupport::TempDir;
using testsupport::sm;

namespace {

// One fatbin entry as NVIDIA's fatbinary writes it (docs/gpu.md).
struct CraftEntry {
    uint16_t kind = 2;  // 1 PTX, 2 ELF
    uint32_t arch = 90;
    uint64_t flags = 0x11;
    uint16_t major = 1, minor = 7;
    std::string payload = std::string(40, 'x');
};

std::string le(uint64_t v, size_t n) {
    std::string s(n, '\0');
    for (size_t i = 0; i < n && i < 8; ++i) s[i] = static_cast<char>((v >> (8 * i)) & 0xff);
    return s;
}

std::string entry_bytes(const CraftEntry& e, uint32_t header_size = 72) {
    std::string h = le(e.kind, 2) + le(0x101, 2) + le(header_size, 4) + le(e.payload.size(), 8) + le(0, 8) +
                    le(e.minor, 2) + le(e.major, 2) + le(e.arch, 4) + le(0, 8) + le(e.flags, 8) + le(0, 16);
    h.resize(header_size, '\0');
    return h + e.payload;
}

std::string fatbin(const std::vector<CraftEntry>& entries) {
    std::string body;
    for (const auto& e : entries) body += entry_bytes(e);
    return le(fatbin_magic, 4) + le(1, 2) + le(16, 2) + le(body.size(), 8) + body;
}

// A cubin's e_flags as ptxas writes them: ELF ABI version 7 (up to CUDA 12)
// keeps the SM in the low byte, 0x400 64-bit addressing, 0x800 for "a", the
// virtual SM in bits 16-23; ABI version 8 (Blackwell) the SM in bits 8-15, 0x8 for "a".
uint32_t v1_flags(uint32_t sm, bool a = false) { return sm | 0x500 | (a ? 0x800 : 0) | (sm << 16); }
uint32_t v2_flags(uint32_t sm, bool a = false) { return (sm << 8) | (a ? 0x8 : 0) | (sm << 16); }

// A cubin as nvcc writes one: an ELF64 with these section names (".text.<kernel>"
// for code); the headers only, enough for the reader's look into its name table.
std::string cubin(const std::vector<std::string>& names, uint32_t flags = v1_flags(75), uint8_t abi = 7) {
    std::string table(1, '\0');
    std::vector<uint32_t> at;
    for (const auto& n : names) {
        at.push_back(static_cast<uint32_t>(table.size()));
        table += n + '\0';
    }
    table.resize((table.size() + 7) / 8 * 8, '\0');
    const uint64_t shoff = 64 + table.size(), count = names.size() + 1;
    std::string elf = std::string("\x7f" "ELF\x02\x01\x01\x33", 8) + le(abi, 8) + le(2, 2) + le(190, 2) + le(1, 4) +
                      le(0, 8) + le(0, 8) + le(shoff, 8) + le(flags, 4) + le(64, 2) + le(56, 2) + le(0, 2) +
                      le(64, 2) + le(count, 2) + le(1, 2);
    elf += table + std::string(64, '\0');  // section 0
    for (size_t i = 0; i < names.size(); ++i) {
        const bool strtab = i == 0;  // names[0] is the name table itself
        elf += le(at[i], 4) + le(strtab ? 3 : 1, 4) + le(0, 8) + le(0, 8) + le(strtab ? 64 : 0, 8) +
               le(strtab ? table.size() : 0, 8) + le(0, 8) + le(1, 8) + le(0, 8);
    }
    return elf;
}

Code read_blob(const TempDir& t, const std::string& bytes, std::string* problem = nullptr) {
    auto p = t / "blob";
    std::ofstream(p, std::ios::binary) << bytes;
    BinaryFile f(p);
    Code c;
    auto pr = read_fatbins(f, 0, f.size(), c);
    if (problem) *problem = pr;
    else CHECK(pr == "");
    return c;
}

}  // namespace

TEST_CASE("fatbin entries: SASS, PTX, suffixed and compressed") {
    TempDir t("fatbin");
    SUBCASE("SASS only") {
        auto c = read_blob(t, fatbin({{2, 80}, {2, 90}, {2, 80}}));
        CHECK(c.sass == std::map<Arch, int>{{sm(80), 2}, {sm(90), 1}});
        CHECK(c.ptx.empty());
        CHECK(sass_list(c) == "sm_80 sm_90");
    }
    SUBCASE("PTX only, with its ISA version") {
        auto c = read_blob(t, fatbin({{1, 90, 0x2011, 7, 8}}));
        CHECK(c.sass.empty());
        CHECK(ptx_list(c) == "compute_90");
        CHECK(c.ptx_isa == 78);
        CHECK(c.compressed == 1);  // 0x2000: an LZ4-compressed payload, counted, never opened
    }
    SUBCASE("arch-specific (sm_90a) and zstd-compressed entries") {
        auto c = read_blob(t, fatbin({{2, 90, 0x100011}, {1, 100, 0x108011, 8, 8}, {2, 120, 0x11}}));
        CHECK(sass_list(c) == "sm_90a sm_120");
        CHECK(ptx_list(c) == "compute_100a");
        CHECK(c.compressed == 1);
    }
    SUBCASE("several fatbins in one section, with padding between and after") {
        auto one = fatbin({{2, 75, 0x11, 1, 7, std::string(37, 'x')}});  // 125 bytes: padded to 128
        auto two = fatbin({{2, 86}, {1, 86, 0x11, 8, 0}});
        auto c = read_blob(t, one + std::string(3, '\0') + two + std::string(32, '\0'));
        CHECK(c.fatbins == 2);
        CHECK(sass_list(c) == "sm_75 sm_86");
    }
    SUBCASE("fatbins aligned further apart than one header (a linker's larger alignment)") {
        auto one = fatbin({{2, 75}});
        auto two = fatbin({{2, 90}, {1, 90, 0x11, 8, 0}});
        auto c = read_blob(t, one + std::string(4096 + 200, '\0') + two + std::string(64, '\0'));
        CHECK(c.fatbins == 2);
        CHECK(sass_list(c) == "sm_75 sm_90");
        CHECK(ptx_list(c) == "compute_90");
    }
}

TEST_CASE("fatbin entries without kernels: a stub runs anywhere") {
    TempDir t("fatbin-stub");
    const auto stub = cubin({".shstrtab", ".strtab", ".symtab", ".nv.callgraph", ".nv.rel.action"});
    const auto kernel = cubin({".shstrtab", ".strtab", ".symtab", ".nv.info._Z4stepPf", ".text._Z4stepPf"});
    const auto kernel90 =
        cubin({".shstrtab", ".strtab", ".symtab", ".nv.info._Z4stepPf", ".text._Z4stepPf"}, v1_flags(90));
    SUBCASE("one uncompressed sm_75 entry with no code section, as CUDA 13's cuFFTW") {
        auto c = read_blob(t, fatbin({{2, 75, 0x11, 1, 7, stub}}));
        CHECK(sass_list(c) == "sm_75");  // listed, as cuobjdump lists it
        CHECK(c.kernel_less == std::map<Arch, int>{{sm(75), 1}});
        CHECK_FALSE(c.has_kernels());
        auto v = judge(c, sm(90));
        CHECK(v.runs == Runs::no_code);
        CHECK(v.why == "no GPU code: only sm_75 entries without kernels");
    }
    SUBCASE("a cubin with a kernel is code") {
        auto c = read_blob(t, fatbin({{2, 75, 0x11, 1, 7, kernel}}));
        CHECK(c.kernel_less.empty());
        CHECK(judge(c, sm(90)).runs == Runs::no);
    }
    SUBCASE("a stub beside real code: only the code is judged") {
        auto c = read_blob(t, fatbin({{2, 75, 0x11, 1, 7, stub}, {2, 90, 0x11, 1, 7, kernel90}}));
        CHECK(c.sass_with_kernels() == std::map<Arch, int>{{sm(90), 1}});
        CHECK(judge(c, sm(90)).runs == Runs::native);
        CHECK(judge(c, sm(86)).why == "no code for sm_86 (has sm_90)");
    }
    SUBCASE("what cannot be looked into counts as code") {
        // Compressed (LZ4), a name kept only as the tail of another, a table past the payload, no ELF.
        auto tail = cubin({".shstrtab", ".rel.text._Z4stepPf"});
        auto cut = stub.substr(0, stub.size() - 10);
        for (const auto& e : std::vector<CraftEntry>{{2, 75, 0x2011, 1, 7, stub}, {2, 75, 0x11, 1, 7, tail},
                                                     {2, 75, 0x11, 1, 7, cut}, {2, 75, 0x11, 1, 7, "plain bytes"}}) {
            auto c = read_blob(t, fatbin({e}));
            CHECK(c.kernel_less.empty());
            CHECK(judge(c, sm(90)).runs == Runs::no);
        }
    }
}

TEST_CASE("every architecture encoding: a and f, the cubin's own flags, unknown values") {
    TempDir t("fatbin-archs");
    const std::vector<std::string> code = {".shstrtab", ".strtab", ".symtab", ".text._Z4stepPf"};
    SUBCASE("names sm_100 ... sm_121 and their a variants from the fatbin header") {
        std::vector<CraftEntry> es;
        for (uint32_t s : {100u, 101u, 103u, 110u, 120u, 121u}) {
            es.push_back({2, s, 0x2011});
            es.push_back({2, s, 0x102011});
        }
        auto c = read_blob(t, fatbin(es));
        CHECK(sass_list(c) == "sm_100 sm_100a sm_101 sm_101a sm_103 sm_103a sm_110 sm_110a sm_120 sm_120a sm_121 sm_121a");
    }
    SUBCASE("an uncompressed cubin names itself: ABI 7 and ABI 8 (Blackwell) layouts") {
        // The fatbin header says sm_90; the cubin's own ELF header has the last word.
        auto c = read_blob(t, fatbin({{2, 90, 0x11, 1, 7, cubin(code, v1_flags(90, true))},
                                      {2, 100, 0x11, 1, 7, cubin(code, v2_flags(100, true), 8)},
                                      {2, 120, 0x11, 1, 7, cubin(code, v2_flags(120), 8)},
                                      {2, 121, 0x11, 1, 7, cubin(code, v2_flags(121, true), 8)}}));
        CHECK(sass_list(c) == "sm_90a sm_100a sm_120 sm_121a");
        // As CUDA 13.0's own libraries carry them (cuRAND, CUPTI on the H200): entry flag
        // 0x1000000, e_flags with 0x4 and a top byte of 5 or 6.
        auto own = read_blob(t, fatbin({{2, 90, 0x1000011, 1, 7, cubin(code, 0x06005a04, 8)},
                                        {2, 75, 0x1000011, 1, 7, cubin(code, 0x05004b04, 8)},
                                        {2, 100, 0x1000011, 1, 7, cubin(code, 0x06006402, 8)},
                                        {2, 121, 0x1000011, 1, 7, cubin(code, 0x05007902, 8)}}));
        CHECK(sass_list(own) == "sm_75 sm_90 sm_100 sm_121");
    }
    SUBCASE("family-specific entries (0x200000), as CUDA 13.0's cuBLASLt carries 1,133") {
        auto c = read_blob(t, fatbin({{2, 100, 0x1208011}, {2, 120, 0x1208011}, {2, 100, 0x1108011}, {2, 103, 0x1008011}}));
        CHECK(sass_list(c) == "sm_100f sm_100a sm_103 sm_120f");
        CHECK(judge(c, sm(103)).runs == Runs::native);
    }
    SUBCASE("unknown values and flags are reported as unknown, with the raw value") {
        auto c = read_blob(t, fatbin({{2, 99, 0x11}, {2, 90, 0x400011}, {2, 90, 0x11, 1, 7, cubin(code, v2_flags(90) | 0x40, 8)},
                                      {2, 90, 0x11, 1, 7, cubin(code, v1_flags(90), 9)}, {1, 130, 0x2011}}));
        CHECK(sass_list(c) == "unknown (0x63) unknown (0x400011) unknown (0x5a055a) unknown (0x5a5a40)");
        CHECK(ptx_list(c) == "unknown (0x82)");
        // Never a wrong known one: an unknown encoding runs nowhere the reader can tell.
        CHECK(judge(c, sm(90)).runs == Runs::no);
        CHECK(judge(c, sm(90)).why.find("unknown (0x") != std::string::npos);
    }
    SUBCASE("an uncompressed PTX says its own target, f included") {
        CraftEntry p{1, 100, 0x11, 8, 8, "//\n.version 8.8\n.target sm_100f\n.address_size 64\n"};
        auto c = read_blob(t, fatbin({p}));
        CHECK(ptx_list(c) == "compute_100f");
    }
}

TEST_CASE("loading rules for a and f (CUDA C++ Programming Guide, Feature Availability)") {
    auto code = [](std::initializer_list<Arch> sass, std::initializer_list<Arch> ptx) {
        Code c;
        for (auto a : sass) c.sass[a] = 1;
        for (auto a : ptx) c.ptx[a] = 1;
        return c;
    };
    auto a90 = Arch{90, true}, a100 = Arch{100, true};
    Arch f100 = *Arch::parse("compute_100f"), f120 = *Arch::parse("sm_120f");
    CHECK(f100.family);
    CHECK(f100.ptx_name() == "compute_100f");
    // sm_90a: on 9.0 alone.
    CHECK(judge(code({a90}, {}), sm(90)).runs == Runs::native);
    CHECK(judge(code({a90}, {}), sm(100)).runs == Runs::no);
    CHECK(judge(code({a100}, {}), sm(103)).runs == Runs::no);
    // compute_100f: JIT for its family only (10.0, 10.3), not for 12.0; plain compute_100 for any later GPU.
    CHECK(judge(code({}, {f100}), sm(103)).runs == Runs::jit);
    CHECK(judge(code({}, {f100}), sm(120)).runs == Runs::no);
    CHECK(judge(code({}, {sm(100)}), sm(120)).runs == Runs::jit);
    // sm_120f SASS: its major, at or above its minor (12.0 and 12.1).
    CHECK(judge(code({f120}, {}), sm(121)).runs == Runs::native);
    CHECK(judge(code({f120}, {}), sm(100)).runs == Runs::no);
    // --gpu names a GPU, not a code variant.
    CHECK_THROWS_AS(parse_gpu_list("sm_100f", "--gpu"), UsageError);
    CHECK_THROWS_AS(parse_gpu_list("sm_90a", "--gpu"), UsageError);
}

TEST_CASE("fatbin: bad input is a one-line finding") {
    TempDir t("fatbin-bad");
    std::string problem;
    SUBCASE("truncated") {
        auto b = fatbin({{2, 80}, {2, 90}});
        read_blob(t, b.substr(0, b.size() - 10), &problem);
        CHECK(problem.find("claims") != std::string::npos);
    }
    SUBCASE("garbage after a fatbin") {
        read_blob(t, fatbin({{2, 80}}) + std::string(16, 'G'), &problem);
        CHECK(problem.find("not a fatbin header") != std::string::npos);
    }
    SUBCASE("garbage after padding") {
        read_blob(t, fatbin({{2, 80}}) + std::string(100, '\0') + std::string(16, 'G'), &problem);
        CHECK(problem.find("not a fatbin header") != std::string::npos);
    }
    SUBCASE("an entry header that claims to be huge") {
        auto e = entry_bytes({}).substr(0, 72);
        e.replace(4, 4, le(0xffffffffu, 4));
        read_blob(t, le(fatbin_magic, 4) + le(1, 2) + le(16, 2) + le(72, 8) + e, &problem);
        CHECK(problem.find("header of") != std::string::npos);
    }
    SUBCASE("headers longer than what is left of the section") {
        // 4,000 bytes of header in a 16-byte section: never read past the section.
        read_blob(t, le(fatbin_magic, 4) + le(1, 2) + le(4000, 2) + le(0, 8), &problem);
        CHECK(problem.find("has version 1 and size 4000") != std::string::npos);
        auto e = entry_bytes({}).substr(0, 72);
        e.replace(4, 4, le(4000, 4));
        read_blob(t, le(fatbin_magic, 4) + le(1, 2) + le(16, 2) + le(72, 8) + e, &problem);
        CHECK(problem.find("header of 4000 bytes") != std::string::npos);
    }
    SUBCASE("a fatbin claiming more than the section") {
        read_blob(t, le(fatbin_magic, 4) + le(1, 2) + le(16, 2) + le(~0ull, 8), &problem);
        CHECK(problem.find("more than its section") != std::string::npos);
    }
    SUBCASE("a file that is no binary") {
        std::ofstream(t / "x.txt") << "hello";
        auto fc = read_file(t / "x.txt");
        CHECK(fc.problem == "not an ELF or PE file");
        CHECK(read_file(t / "missing").problem == "cannot be read");
    }
}

TEST_CASE("Arch::parse") {
    CHECK(Arch::parse("sm_61") == sm(61));
    CHECK(Arch::parse("compute_90a") == sm(90, true));
    CHECK(Arch::parse("8.6") == sm(86));
    CHECK(Arch::parse("12.0") == sm(120));
    CHECK(Arch::parse("120") == sm(120));
    CHECK_FALSE(Arch::parse("sm_"));
    CHECK_FALSE(Arch::parse("9"));
    CHECK_FALSE(Arch::parse("-61"));
    CHECK_FALSE(Arch::parse("8.10"));
    CHECK_THROWS_AS(parse_gpu_list("sm_61,banana", "--gpu"), UsageError);
    CHECK(parse_gpu_list("sm_61, 9.0", "--gpu").size() == 2);
}
