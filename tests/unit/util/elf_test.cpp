#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/detect.hpp"
#include "platform/lock.hpp"
#include "platform/platform.hpp"
#include "test_support.hpp"
#include "util/elf.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"
#include "util/strings.hpp"

using namespace cudaenv;
using testsupport::TempDir;
namespace fs = std::filesystem;

namespace {

// A minimal ELF64 LE shared object: one PT_LOAD mapping the file at
// 0x400000 and a PT_DYNAMIC whose DT_NEEDED entries name `needed`.
std::string tiny_elf(const std::vector<std::string>& needed) {
    const uint64_t base = 0x400000, phoff = 64, strtab_off = phoff + 2 * 56;
    std::string strtab(1, '\0');
    std::vector<uint64_t> name_offs;
    for (const auto& n : needed) {
        name_offs.push_back(strtab.size());
        strtab += n + '\0';
    }
    const uint64_t dyn_off = (strtab_off + strtab.size() + 7) / 8 * 8;
    const uint64_t dyn_size = (needed.size() + 2) * 16;
    std::string f(dyn_off + dyn_size, '\0');
    auto put = [&](uint64_t off, auto v) { std::memcpy(f.data() + off, &v, sizeof v); };
    std::memcpy(f.data(), "\x7f" "ELF\x02\x01\x01", 7);
    put(16, uint16_t{3});   // ET_DYN
    put(18, uint16_t{62});  // x86-64
    put(20, uint32_t{1});
    put(32, phoff);
    put(52, uint16_t{64});
    put(54, uint16_t{56});
    put(56, uint16_t{2});
    put(58, uint16_t{64});
    // PT_LOAD
    put(phoff + 0, uint32_t{1});
    put(phoff + 8, uint64_t{0});
    put(phoff + 16, base);
    put(phoff + 32, uint64_t(f.size()));
    put(phoff + 40, uint64_t(f.size()));
    // PT_DYNAMIC
    put(phoff + 56 + 0, uint32_t{2});
    put(phoff + 56 + 8, dyn_off);
    put(phoff + 56 + 16, base + dyn_off);
    put(phoff + 56 + 32, dyn_size);
    put(phoff + 56 + 40, dyn_size);
    std::memcpy(f.data() + strtab_off, strtab.data(), strtab.size());
    uint64_t d = dyn_off;
    for (auto off : name_offs) {
        put(d, int64_t{1});  // DT_NEEDED
        put(d + 8, off);
        d += 16;
    }
    put(d, int64_t{5});  // DT_STRTAB
    put(d + 8, base + strtab_off);
    return f;  // DT_NULL follows (zeros)
}

}  // namespace

TEST_CASE("elf::needed_libraries") {
    TempDir tmp("elf");
    SUBCASE("a synthetic shared object") {
        auto p = tmp / "libcudnn.so.9.14.0";
        testsupport::write(p, tiny_elf({"libcublasLt.so.12", "libc.so.6"}));
        CHECK(elf::needed_libraries(p) == std::vector<std::string>{"libcublasLt.so.12", "libc.so.6"});
    }
    SUBCASE("not ELF, truncated, missing") {
        testsupport::write(tmp / "text", "#!/bin/sh\n");
        CHECK(elf::needed_libraries(tmp / "text").empty());
        auto elf = tiny_elf({"libcudart.so.11.0"});
        testsupport::write(tmp / "cut", elf.substr(0, 100));
        CHECK(elf::needed_libraries(tmp / "cut").empty());
        testsupport::write(tmp / "empty");
        CHECK(elf::needed_libraries(tmp / "empty").empty());
        CHECK(elf::needed_libraries(tmp / "missing").empty());
    }
#ifdef __linux__
    SUBCASE("this test program") {
        auto needed = elf::needed_libraries("/proc/self/exe");
        CHECK(std::find(needed.begin(), needed.end(), "libc.so.6") != needed.end());
    }
#endif
    SUBCASE("a Linux cuDNN tells its CUDA major by what it links") {
        auto root = tmp / "usr-local-cudnn";
        testsupport::write(root / "include" / "cudnn_version.h",
                           "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 14\n#define CUDNN_PATCHLEVEL 0\n");
        testsupport::write(root / "lib" / "libcudnn.so.9.14.0", tiny_elf({"libdl.so.2"}));
        testsupport::write(root / "lib" / "libcudnn_ops.so.9.14.0", tiny_elf({"libcublasLt.so.13", "libcublas.so.13"}));
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        CHECK(all[0].version == *Version::parse("9.14.0"));
        CHECK(all[0].cuda_major == 13);
        CHECK(all[0].cuda_major_source == "linked libraries");
    }
}
