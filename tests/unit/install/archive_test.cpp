// Unit tests of archive member paths, symlinks and extraction of archives built with libarchive, hostile ones included (install/archive).
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
