// Unit tests for src/install: NVIDIA's real redistrib manifests (copies in
// data/), archive names, member-path checks,
// cuDNN library sets, version.json, extraction of hostile archives built
// with libarchive.
#include <doctest/doctest.h>

#include "test_support.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include "install/archive.hpp"
#include "install/fetch.hpp"
#include "install/layout.hpp"
#include "install/manifest.hpp"
#include "install/mirror.hpp"
#include "install/sha256.hpp"
#include "platform/lock.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

using namespace cudaenv;
using namespace cudaenv::install;
namespace fs = std::filesystem;

namespace {

Manifest load(const std::string& name, const std::string& product) {
    auto text = fsx::read_file(fs::path(CUDAENV_INSTALL_TEST_DATA) / name, 64u << 20);
    REQUIRE(text);
    return Manifest::parse(*text, name, "", product);
}

using testsupport::TempDir;

struct TarEntry {
    std::string name;
    std::string data;
    unsigned type;
    std::string link;  // symlink target
    TarEntry(std::string n, std::string d, unsigned t = AE_IFREG, std::string l = {})
        : name(std::move(n)), data(std::move(d)), type(t), link(std::move(l)) {}
};

fs::path write_tar(const fs::path& path, const std::vector<TarEntry>& entries) {
    archive* a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    archive_write_add_filter_xz(a);
#ifdef _WIN32
    REQUIRE(archive_write_open_filename_w(a, path.c_str()) == ARCHIVE_OK);
#else
    REQUIRE(archive_write_open_filename(a, path.c_str()) == ARCHIVE_OK);
#endif
    for (const auto& e : entries) {
        archive_entry* en = archive_entry_new();
        archive_entry_set_pathname(en, e.name.c_str());
        archive_entry_set_filetype(en, e.type);
        archive_entry_set_perm(en, 0644);
        if (e.type == AE_IFLNK) archive_entry_set_symlink(en, e.link.c_str());
        if (e.type == AE_IFREG) archive_entry_set_size(en, static_cast<la_int64_t>(e.data.size()));
        archive_write_header(a, en);
        if (!e.data.empty()) archive_write_data(a, e.data.data(), e.data.size());
        archive_entry_free(en);
    }
    archive_write_close(a);
    archive_write_free(a);
    return path;
}

}  // namespace

TEST_CASE("CUDA 12.6.3 manifest") {
    auto m = load("redistrib_12.6.3.json", "cuda");
    CHECK(m.product == "cuda");
    CHECK(m.release_label == "12.6.3");
    CHECK(m.release_date == "2024-11-20");
    const auto& cccl = m.components.at("cuda_cccl");
    CHECK(cccl.version == "12.6.77");
    CHECK(cccl.name == "CXX Core Compute Libraries");
    auto* a = cccl.find("linux-x86_64");
    REQUIRE(a);
    CHECK(a->relative_path == "cuda_cccl/linux-x86_64/cuda_cccl-linux-x86_64-12.6.77-archive.tar.xz");
    CHECK(a->sha256 == "9c3145ef01f73e50c0f5fcf923f0899c847f487c529817daa8f8b1a3ecf20925");
    CHECK(a->size == 934952);
    CHECK(cccl.find("windows-x86_64")->size == 2929962);
    CHECK(m.components.count("cuda_cudart"));
    auto def = default_cuda_components(m, "linux-x86_64");
    CHECK(def.front() == "cuda_cudart");
    CHECK(std::find(def.begin(), def.end(), "cuda_nvcc") != def.end());
    CHECK(std::find(def.begin(), def.end(), "libcublas") != def.end());
    CHECK(std::find(def.begin(), def.end(), "cuda_crt") == def.end());  // not in 12.x
    CHECK(std::find(def.begin(), def.end(), "nsight_systems") == def.end());
}

TEST_CASE("visual_studio_integration: in Windows installs, placed where NVIDIA's installer has it") {
    auto m = load("redistrib_12.6.3.json", "cuda");
    auto win = default_cuda_components(m, "windows-x86_64");
    auto lin = default_cuda_components(m, "linux-x86_64");
    CHECK(std::find(win.begin(), win.end(), "visual_studio_integration") != win.end());
    CHECK(std::find(lin.begin(), lin.end(), "visual_studio_integration") == lin.end());
    const auto dir = std::filesystem::temp_directory_path() / ("cudaenv-vsi-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "visual_studio_integration" / "MSBuildExtensions");
    std::ofstream(dir / "visual_studio_integration" / "MSBuildExtensions" / "CUDA 12.6.props") << "<Project />";
    std::filesystem::create_directories(dir / "licenses" / "visual_studio_integration");
    place_component("cuda_cudart", dir);
    CHECK(fsx::is_dir(dir / "visual_studio_integration"));
    place_component("visual_studio_integration", dir);
    CHECK(fsx::is_file(dir / "extras" / "visual_studio_integration" / "MSBuildExtensions" / "CUDA 12.6.props"));
    CHECK_FALSE(fsx::exists(dir / "visual_studio_integration"));
    CHECK(fsx::is_dir(dir / "licenses" / "visual_studio_integration"));  // the licences stay at the top
    std::filesystem::remove_all(dir);
}

TEST_CASE("CUDA 13.0.2 manifest: split compiler components are in the default set") {
    auto m = load("redistrib_13.0.2.json", "cuda");
    CHECK(m.release_label == "13.0.2");
    auto def = default_cuda_components(m, "linux-x86_64");
    for (const char* c : {"cuda_crt", "libnvvm", "cuda_nvcc", "cuda_cudart"})
        CHECK(std::find(def.begin(), def.end(), c) != def.end());
}

TEST_CASE("cuDNN 8.9.7 manifest") {
    auto m = load("redistrib_8.9.7.json", "cudnn");
    CHECK(m.product == "cudnn");
    CHECK(m.release_label == "8.9.7");
    const auto& c = m.components.at("cudnn");
    CHECK(c.version == "8.9.7.29");
    auto* w11 = c.find("windows-x86_64", 11);
    REQUIRE(w11);
    CHECK(w11->relative_path == "cudnn/windows-x86_64/cudnn-windows-x86_64-8.9.7.29_cuda11-archive.zip");
    CHECK(w11->sha256 == "5e45478efe71a96329e6c0d2a3a2f79c747c15b2a51fead4b84c89b02cbf1671");
    CHECK(w11->size == 704240064);
    auto* l12 = c.find("linux-x86_64", 12);
    REQUIRE(l12);
    CHECK(l12->size == 864984964);
    CHECK(c.find("linux-x86_64", 13) == nullptr);
    CHECK(c.find("linux-x86_64") == nullptr);  // cuDNN entries always name a CUDA variant
}

TEST_CASE("cuDNN 9.8.0 manifest: cuda_variant after the platform keys") {
    auto m = load("redistrib_9.8.0.json", "cudnn");
    const auto& c = m.components.at("cudnn");
    CHECK(c.find("linux-x86_64", 11));
    CHECK(c.find("linux-x86_64", 12));
    CHECK(c.find("windows-x86_64", 11));
    CHECK(c.find("linux-aarch64", 11) == nullptr);
}

TEST_CASE("cuDNN 9.13.0 manifest: cuda12 and cuda13, cudnn_jit") {
    auto m = load("redistrib_9.13.0.json", "cudnn");
    const auto& c = m.components.at("cudnn");
    CHECK(c.version == "9.13.0.50");
    CHECK(c.find("linux-x86_64", 11) == nullptr);
    auto* w13 = c.find("windows-x86_64", 13);
    REQUIRE(w13);
    CHECK(w13->size == 337906764);
    CHECK(m.components.count("cudnn_jit"));
}

TEST_CASE("malformed manifests are clear errors") {
    auto bad = [](const std::string& text) { CHECK_THROWS_AS(Manifest::parse(text, "m.json"), Error); };
    bad("not json");
    bad("[1,2]");
    bad(R"({"release_label":"1"})");
    const std::string sha(64, 'a');
    bad(R"({"c":{"linux-x86_64":{"relative_path":"../../etc/passwd","sha256":")" + sha + R"(","size":"1"}}})");
    bad(R"({"c":{"linux-x86_64":{"relative_path":"/abs/x","sha256":")" + sha + R"(","size":"1"}}})");
    bad(R"({"c":{"linux-x86_64":{"relative_path":"c/x.tar.xz","sha256":"abc","size":"1"}}})");
    bad(R"({"c":{"linux-x86_64":{"relative_path":"c/x.tar.xz","sha256":")" + sha + R"(","size":"12x"}}})");
    auto ok = Manifest::parse(
        R"({"c":{"version":"1.0","linux-x86_64":{"relative_path":"c/x.tar.xz","sha256":")" + sha + R"(","size":42}}})",
        "m.json", "11.8.0", "cuda");
    CHECK(ok.release_label == "11.8.0");  // from the file name when the manifest has none
    CHECK(ok.components.at("c").artifacts.at(0).size == 42);
    try {
        Manifest::parse("{", "redistrib_1.json");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("redistrib_1.json") != std::string::npos);
    }
}

TEST_CASE("archive names") {
    auto c = parse_archive_name("cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz");
    REQUIRE(c);
    CHECK(c->is_cudnn());
    CHECK(c->platform == "linux-x86_64");
    CHECK(c->version.str() == "8.9.7.29");
    CHECK(c->cuda_major == 11);
    CHECK(c->extension == "tar.xz");
    auto w = parse_archive_name("cudnn-windows-x86_64-9.13.0.50_cuda13-archive.zip");
    REQUIRE(w);
    CHECK(w->platform == "windows-x86_64");
    CHECK(w->cuda_major == 13);
    auto rt = parse_archive_name("cuda_cudart-linux-x86_64-11.8.89-archive.tar.xz");
    REQUIRE(rt);
    CHECK(rt->component == "cuda_cudart");
    CHECK(rt->cuda_major == 0);
    CHECK(parse_archive_name("libcublas-windows-x86_64-12.6.4.1-archive.zip"));
    CHECK_FALSE(parse_archive_name("cudnn-linux-x86_64-8.9.7.29-archive.tar.xz"));  // no _cuda<N>
    CHECK_FALSE(parse_archive_name("cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.gz"));
    CHECK_FALSE(parse_archive_name("../cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name("cudnn-linux-x86_64-8.9.7.29_cuda0-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name("cuda_cudart-linux-x86_64-11.8.89_cuda11-archive.tar.xz"));  // _cuda<N> is cuDNN's
    CHECK_FALSE(parse_archive_name("cuda_cudart-beos-x86_64-11.8.89-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name("cuda_cudart-linux-x86_64-11.8.89.1.2-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name("-linux-x86_64-11.8.89-archive.tar.xz"));
    // Names of any length are read in one pass (std::regex recursed once per character).
    CHECK_FALSE(parse_archive_name("cudnn-linux-x86_64-" + std::string(200000, '9') + "_cuda12-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name("cudnn-linux-x86_64-9.8.0.87_cuda" + std::string(200000, '1') + "-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name(std::string(200000, 'a') + "-linux-x86_64-1.0-archive.zip"));
    CHECK(manifest_release("redistrib_12.6.3.json")->str() == "12.6.3");
    CHECK_FALSE(manifest_release("redistrib_12.6.3.json.part"));
    CHECK_FALSE(manifest_release("redistrib_.json"));
    CHECK_FALSE(manifest_release("redistrib_1.2.3.4.5.json"));
    CHECK_FALSE(manifest_release("redistrib_" + std::string(30000, '1') + ".json"));
}

TEST_CASE("member paths") {
    std::string why;
    CHECK(clean_member_path("top/lib/libcudnn.so.8", &why).value() == "top/lib/libcudnn.so.8");
    CHECK(clean_member_path("./top//lib/", &why).value() == "top/lib");
    CHECK(clean_member_path("top\\bin\\cudnn64_8.dll", &why).value() == "top/bin/cudnn64_8.dll");
    CHECK_FALSE(clean_member_path("top/../../x", &why));
    CHECK(why.find("..") != std::string::npos);
    CHECK_FALSE(clean_member_path("/etc/passwd", &why));
    CHECK_FALSE(clean_member_path("C:/Windows/x", &why));
    CHECK_FALSE(clean_member_path("top\\..\\x", &why));
    CHECK_FALSE(clean_member_path("", &why));
}

TEST_CASE("symlink targets") {
    CHECK(symlink_stays_inside("lib/libcudnn.so.8", "libcudnn.so.8.9.7"));
    CHECK(symlink_stays_inside("lib/x", "../include/cudnn.h"));
    CHECK(symlink_stays_inside("lib/sub/x", "../../LICENSE"));
    CHECK_FALSE(symlink_stays_inside("lib/x", "../../outside"));
    CHECK_FALSE(symlink_stays_inside("x", ".."));
    CHECK_FALSE(symlink_stays_inside("lib/x", "/etc/passwd"));
    CHECK_FALSE(symlink_stays_inside("lib/x", "here/../.."));  // ".." after a name may follow another link
    CHECK_FALSE(symlink_stays_inside("lib/x", ""));
}

TEST_CASE("cuDNN library sets") {
    CHECK(cudnn_required_libraries(8, false).size() == 7);
    CHECK(cudnn_required_libraries(9, false).size() == 8);
    CHECK(cudnn_required_libraries(8, false).front() == "libcudnn.so.8");
    CHECK(cudnn_required_libraries(9, true).back() == "cudnn_heuristic64_9.dll");
    auto w8 = cudnn_required_libraries(8, true);
    CHECK(std::find(w8.begin(), w8.end(), "cudnn_adv_train64_8.dll") != w8.end());
}

TEST_CASE("validate a Windows cuDNN layout (bin/, lib/x64/)") {
    TempDir t;
    fs::create_directories(t.path() / "bin");
    fs::create_directories(t.path() / "include");
    std::ofstream(t.path() / "include" / "cudnn_version.h")
        << "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n";
    auto v = *Version::parse("8.9.7.29");
    CHECK_THROWS_AS(validate_cudnn(t.path(), v, "windows-x86_64"), Error);
    for (const auto& n : cudnn_required_libraries(8, true)) std::ofstream(t.path() / "bin" / n) << "dll";
    CHECK_NOTHROW(validate_cudnn(t.path(), v, "windows-x86_64"));
    CHECK_THROWS_AS(validate_cudnn(t.path(), *Version::parse("8.9.6.50"), "windows-x86_64"), Error);
    CHECK_THROWS_AS(validate_cudnn(t.path(), v, "linux-x86_64"), Error);  // no lib/libcudnn.so.8
}

TEST_CASE("version.json in NVIDIA's format is read back by detection") {
    auto text = toolkit_version_json("12.6.3", {{"cuda_cudart", {"CUDA Runtime (cudart)", "12.6.77"}}});
    CHECK(text.find(R"("cuda": {)") != std::string::npos);
    CHECK(text.find(R"("name": "CUDA SDK")") != std::string::npos);
    CHECK(text.find(R"("version": "12.6.3")") != std::string::npos);
    TempDir t;
    std::ofstream(t.path() / "version.json") << text;
    auto comps = read_version_json_components(t.path());
    CHECK(comps.size() == 1);
    CHECK(comps.at("cuda_cudart").version == "12.6.77");
}

TEST_CASE("mirror choice and release listing") {
    CHECK(choose_mirror("/m", std::string("/e"), std::string("/c")) == "/m");
    CHECK(choose_mirror("", std::string("/e"), std::string("/c")) == "/e");
    CHECK(choose_mirror("", std::nullopt, std::string("/c")) == "/c");
    CHECK(choose_mirror("", std::nullopt, std::nullopt) == kDefaultMirror);
    auto rs = releases_from_listing(
        R"(<a href="redistrib_12.6.3.json">redistrib_12.6.3.json</a> <a href="redistrib_11.8.0.json">x</a>)"
        R"(<a href="redistrib_13.0.2.json">redistrib_13.0.2.json</a> <a href="cuda_cudart/">cuda_cudart/</a>)");
    REQUIRE(rs.size() == 3);
    CHECK(rs[0].str() == "13.0.2");
    CHECK(rs[2].str() == "11.8.0");
    // Issue 40, R1: `redistrib_` and 30,000 digits crashed std::regex (SIGSEGV, a frame per character).
    auto bomb = "<a href=\"redistrib_" + std::string(30000, '1') + ".json\">x</a>" + std::string(1 << 20, ' ') +
                "<a href=\"redistrib_" + std::string(1 << 20, '.') + "\"> redistrib_12.6.3.json redistrib_12.json";
    auto listed = releases_from_listing(bomb);
    REQUIRE(listed.size() == 2);
    CHECK(listed[0].str() == "12.6.3");
    CHECK(listed[1].str() == "12");
    std::string many;
    for (size_t i = 0; i <= kMaxListedReleases; ++i) many += "redistrib_1." + std::to_string(i) + ".json ";
    CHECK_THROWS_WITH_AS(releases_from_listing(many), doctest::Contains("more than 10000 releases"), Error);
}

TEST_CASE("sha256 and sizes") {
    Sha256 h;
    h.update("abc", 3);
    CHECK(h.hex_digest() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(str::is_sha256_hex(std::string(64, 'F')));
    CHECK_FALSE(str::is_sha256_hex("abc"));
    CHECK(str::human_bytes(1536) == "1.5 KiB");
    CHECK(str::human_bytes(704240064) == "671.6 MiB");
    CHECK(max_unpacked_size(1) == (32ull << 20));
    CHECK(max_unpacked_size(1ull << 30) == (40ull << 30));
}

#ifndef _WIN32  // symbolic links in the archive (these tests joined the Windows build with the one unit binary)
TEST_CASE("extraction strips the top folder, keeps symlinks and hashes in the same pass") {
    TempDir t;
    auto arc = write_tar(t.path() / "a.tar.xz", {{"top/", "", AE_IFDIR},
                                                {"top/lib/libx.so.1.2", "payload"},
                                                {"top/lib/libx.so.1", "", AE_IFLNK, "libx.so.1.2"}});
    fs::create_directories(t.path() / "out");
    ExtractOptions o;
    o.dest = t.path() / "out";
    o.expect_sha256 = sha256_file(arc);
    auto r = extract_archive(arc, o);
    CHECK(r.top == "top");
    CHECK(r.sha256 == o.expect_sha256);
    CHECK(fs::read_symlink(t.path() / "out" / "lib" / "libx.so.1") == "libx.so.1.2");
    CHECK(fsx::read_file(t.path() / "out" / "lib" / "libx.so.1").value() == "payload");
}
#endif

TEST_CASE("decoded blocks are reused without changing a byte of a large file") {
    // Several MiB of decoded data: the decoder thread hands libarchive 1 MiB
    // blocks and reuses the ones it is done with (archive_reader.cpp).
    TempDir t;
    std::mt19937_64 rng(7);
    std::string big;
    for (size_t i = 0; i < (5u << 20) + 12345; ++i)
        big.push_back(i % 3 ? static_cast<char>(rng()) : static_cast<char>('a' + i % 26));
    auto arc = write_tar(t.path() / "b.tar.xz", {{"top/", "", AE_IFDIR},
                                                {"top/lib/big.so", big},
                                                {"top/lib/after.txt", "after"}});
    fs::create_directories(t.path() / "out");
    ExtractOptions o;
    o.dest = t.path() / "out";
    extract_archive(arc, o);
    CHECK(fsx::read_file(t.path() / "out" / "lib" / "big.so", 64u << 20).value() == big);
    CHECK(fsx::read_file(t.path() / "out" / "lib" / "after.txt").value() == "after");
}

TEST_CASE("complete archives go to the workers largest first, whatever order they finish in") {
    std::vector<FetchJob> jobs{{"cuda_cudart", "", {}, 1'000},
                               {"cudnn", "", {}, 900'000'000},
                               {"libcublas", "", {}, 500'000'000},
                               {"cuda_nvtx", "", {}, 10}};
    ReadyQueue q(jobs);
    q.push(0);
    q.push(3);
    q.push(2);
    size_t i = 99;
    REQUIRE(q.pop(i));
    CHECK(i == 2);  // the only large one complete so far
    q.push(1);
    REQUIRE(q.pop(i));
    CHECK(i == 1);  // cuDNN, complete last, still goes before the small ones
    q.close();
    REQUIRE(q.pop(i));
    CHECK(i == 0);
    REQUIRE(q.pop(i));
    CHECK(i == 3);
    CHECK_FALSE(q.pop(i));
}

TEST_CASE("hostile tar entries are refused before anything is written outside") {
    TempDir t;
    auto refused = [&](std::vector<TarEntry> entries, const std::string& expect) {
        auto arc = write_tar(t.path() / "h.tar.xz", entries);
        fs::remove_all(t.path() / "out");
        fs::create_directories(t.path() / "out");
        ExtractOptions o;
        o.dest = t.path() / "out";
        try {
            extract_archive(arc, o);
            FAIL("not refused: " << expect);
        } catch (const Error& e) {
            CHECK_MESSAGE(std::string(e.what()).find(expect) != std::string::npos, e.what());
        }
        CHECK_FALSE(fs::exists(t.path() / "evil"));
    };
    refused({{"top/a", "x"}, {"top/../evil", "x"}}, "'..'");
    refused({{"top/a", "x"}, {"top/l", "", AE_IFLNK, "../evil"}}, "outside the archive");
    refused({{"top/l", "", AE_IFLNK, "."}, {"top/l/evil", "x"}}, "through the symlink");
    refused({{"top/a", "x"}, {"top/a", "y"}}, "twice");
    refused({{"top/a", "x"}, {"top/b", "", AE_IFCHR}}, "device file");
    refused({{"top/a", "x"}, {"second/b", "y"}}, "top folder");
    refused({{"top/a", std::string(40u << 20, '\0')}}, "absurdly large");
}

TEST_CASE("a wrong size or hash is refused") {
    TempDir t;
    auto arc = write_tar(t.path() / "a.tar.xz", {{"top/a", "x"}});
    fs::create_directories(t.path() / "out");
    ExtractOptions o;
    o.dest = t.path() / "out";
    o.expect_size = fs::file_size(arc) + 1;
    CHECK_THROWS_WITH_AS(extract_archive(arc, o), doctest::Contains("manifest says"), Error);
    o.expect_size = 0;
    o.expect_sha256 = std::string(64, '0');
    CHECK_THROWS_WITH_AS(extract_archive(arc, o), doctest::Contains("sha256 mismatch"), Error);
}

TEST_CASE("the install lock excludes a second holder until released") {
    TempDir t;
    auto file = t.path() / "install.lock";
    {
        platform::FileLock first(file, true);
        CHECK(first.locked());
        platform::FileLock second(file, false);
        CHECK_FALSE(second.locked());
    }
    platform::FileLock again(file, false);
    CHECK(again.locked());
}

#ifndef _WIN32  // the POSIX umask and /proc
namespace {
// The process umask as the kernel reports it, without setting it (umask(2) can only be read by changing it).
std::string umask_now() {
    auto s = fsx::read_file("/proc/self/status", 1 << 16);
    REQUIRE(s);
    auto at = s->find("Umask:");
    REQUIRE(at != std::string::npos);
    return std::string(str::trim(s->substr(at + 6, s->find('\n', at) - at - 6)));
}
}  // namespace

TEST_CASE("extractions on several threads keep the umask, and no folder they make is writable by others") {
    // libarchive reads the umask by setting it to 0 and back on every header
    // (CVE-2023-30571): unguarded, two extractions at once leave folders
    // 0777 and, now and then, the umask 0 for good (a world-writable shared store).
    TempDir t;
    std::vector<TarEntry> entries = {{"top/", "", AE_IFDIR}};
    for (int i = 0; i < 3000; ++i)  // files only: their folders are made by libarchive, from the umask it read
        entries.emplace_back("top/d" + std::to_string(i % 97) + "/s" + std::to_string(i % 13) + "/f" + std::to_string(i), "x");
    auto arc = write_tar(t.path() / "many.tar.xz", entries);
    const auto old = ::umask(022);
    // The destinations are made first, as install makes its staging folders
    // before the workers start: a folder made beside a running extraction,
    // without the lock, could still meet its moment of umask 0.
    auto dest_of = [&](int w, int round) { return t.path() / ("out" + std::to_string(w) + "-" + std::to_string(round)); };
    for (int w = 0; w < 4; ++w)
        for (int round = 0; round < 4; ++round) fs::create_directories(dest_of(w, round));
    std::vector<std::thread> threads;
    std::atomic<int> failures = 0;
    for (int w = 0; w < 4; ++w)
        threads.emplace_back([&, w] {
            for (int round = 0; round < 4; ++round) {
                auto dest = dest_of(w, round);
                ExtractOptions o;
                o.dest = dest;
                try {
                    extract_archive(arc, o);
                } catch (const std::exception&) {
                    ++failures;
                }
            }
        });
    for (auto& th : threads) th.join();
    CHECK(failures == 0);
    CHECK(umask_now() == "0022");
    int open_to_others = 0;
    for (auto it = fs::recursive_directory_iterator(t.path()); it != fs::recursive_directory_iterator(); ++it)
        if (it->is_directory() && (fs::status(it->path()).permissions() & (fs::perms::group_write | fs::perms::others_write)) != fs::perms::none)
            ++open_to_others;
    CHECK(open_to_others == 0);
    ::umask(old);
}
#endif  // _WIN32
