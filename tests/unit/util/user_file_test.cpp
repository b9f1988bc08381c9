// The one writer of files outside the store (util/user_file.hpp, issue 28.2
// and 28.3): through links, into devices and FIFOs, keeping mode, owner and
// hard links, refusing what it must not replace, never creating folders,
// leaving no temporary file behind.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/user_file.hpp"

#ifndef _WIN32
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

using namespace cudaenv;
using namespace testsupport;
namespace fs = std::filesystem;

namespace {

// Names in `dir` left by a writer (a temporary file).
size_t temp_files(const fs::path& dir) {
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir))
        if (fsx::to_utf8(e.path().filename()).find("tmp") != std::string::npos) ++n;
    return n;
}

}  // namespace

TEST_CASE("write_user_file: a regular file, a new file, no folder created") {
    TempDir tmp("userfile");
    write(tmp / "a.env", "old\n");
    fsx::write_user_file(tmp / "a.env", "new\n");
    CHECK(read(tmp / "a.env") == "new\n");
    fsx::write_user_file(tmp / "b.env", "fresh\n");
    CHECK(read(tmp / "b.env") == "fresh\n");
    CHECK(temp_files(tmp.path()) == 0);
    CHECK_THROWS_AS(fsx::write_user_file(tmp / "missing" / "c.env", "x"), Error);
    CHECK_FALSE(fs::exists(tmp / "missing"));
    CHECK_THROWS_AS(fsx::check_user_file_writable(tmp / "missing" / "c.env"), Error);
    fs::create_directories(tmp / "dir");
    CHECK_THROWS_AS(fsx::write_user_file(tmp / "dir", "x"), Error);
    CHECK(fs::is_directory(tmp / "dir"));
}

#ifndef _WIN32

TEST_CASE("write_user_file keeps what is at the path") {
    TempDir tmp("userfile");
    SUBCASE("a link is written through: its target gets the text, the link stays") {
        fs::create_directories(tmp / "dotfiles");
        write(tmp / "dotfiles" / "env", "old\n");
        fs::create_symlink(tmp / "dotfiles" / "env", tmp / ".env");
        fsx::write_user_file(tmp / ".env", "new\n");
        CHECK(fs::is_symlink(tmp / ".env"));
        CHECK(read(tmp / "dotfiles" / "env") == "new\n");
        CHECK(temp_files(tmp / "dotfiles") == 0);
    }
    SUBCASE("a link to nothing is refused, nothing created") {
        fs::create_symlink(tmp / "nowhere", tmp / ".env");
        CHECK_THROWS_AS(fsx::write_user_file(tmp / ".env", "x"), Error);
        CHECK_FALSE(fs::exists(tmp / "nowhere"));
        CHECK(fs::is_symlink(tmp / ".env"));
    }
    SUBCASE("the mode is kept (a 0600 file of secrets stays 0600)") {
        write(tmp / ".env", "SECRET=1\n");
        fs::permissions(tmp / ".env", fs::perms::owner_read | fs::perms::owner_write);
        fsx::write_user_file(tmp / ".env", "SECRET=2\n");
        CHECK((fs::status(tmp / ".env").permissions() & fs::perms::all) ==
              (fs::perms::owner_read | fs::perms::owner_write));
    }
    SUBCASE("a hard link is kept: both names see the new text") {
        write(tmp / "a", "old\n");
        fs::create_hard_link(tmp / "a", tmp / "b");
        fsx::write_user_file(tmp / "a", "new\n");
        CHECK(read(tmp / "b") == "new\n");
        CHECK(fs::hard_link_count(tmp / "a") == 2);
    }
    SUBCASE("a character device is written, never replaced") {
        fsx::write_user_file("/dev/null", "into the void\n");
        struct stat st {};
        REQUIRE(::stat("/dev/null", &st) == 0);
        CHECK(S_ISCHR(st.st_mode));
        CHECK(fsx::read_user_file("/dev/null", 100, "test") == std::string());
    }
    SUBCASE("a FIFO is written directly; a read-modify-write of one is refused") {
        REQUIRE(::mkfifo((tmp / "fifo").c_str(), 0600) == 0);
        std::string got;
        std::thread reader([&] { got = read(tmp / "fifo"); });
        fsx::write_user_file(tmp / "fifo", "through the pipe\n");
        reader.join();
        CHECK(got == "through the pipe\n");
        CHECK_THROWS_AS(fsx::read_user_file(tmp / "fifo", 100, "dotenv"), Error);
    }
    SUBCASE("a read-only file is refused and left as it was") {
        write(tmp / "ro", "keep\n");
        fs::permissions(tmp / "ro", fs::perms::owner_read);
        CHECK_THROWS_AS(fsx::write_user_file(tmp / "ro", "x"), Error);
        CHECK(read(tmp / "ro") == "keep\n");
    }
    SUBCASE("a file over the read cap is refused for a read-modify-write") {
        write(tmp / "big", std::string(2048, 'x'));
        CHECK_THROWS_AS(fsx::read_user_file(tmp / "big", 1024, "dotenv"), Error);
        CHECK(fsx::read_user_file(tmp / "none", 1024, "dotenv") == std::nullopt);
    }
    SUBCASE("append: one write at the end, a line break first when the file lacks one") {
        write(tmp / "log", "A=1");
        fsx::append_user_file(tmp / "log", "B=2\n");
        CHECK(read(tmp / "log") == "A=1\nB=2\n");
        fsx::append_user_file(tmp / "new-log", "C=3\n");
        CHECK(read(tmp / "new-log") == "C=3\n");
    }
    SUBCASE("temporary files of a killed writer go at the next write; a live one's stay") {
        pid_t dead = ::fork();
        if (dead == 0) ::_exit(0);
        REQUIRE(dead > 0);
        int status = 0;
        ::waitpid(dead, &status, 0);
        const auto stale = ".cudaenv-tmp." + std::to_string(dead) + ".1.x.env";
        const auto live = ".cudaenv-tmp." + std::to_string(::getpid()) + ".2.x.env";
        write(tmp / stale, "half");
        write(tmp / live, "half");
        fsx::write_user_file(tmp / "x.env", "whole\n");
        CHECK_FALSE(fs::exists(tmp / stale));
        CHECK(fs::exists(tmp / live));
    }
}

TEST_CASE("UserFileLock: one holder at a time") {
    TempDir tmp("userlock");
    write(tmp / "f", "");
    std::atomic<int> inside{0}, most{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
        threads.emplace_back([&] {
            // flock is per open file description: each holder opens its own.
            fsx::UserFileLock lock(tmp / "f");
            int now = ++inside;
            most = std::max(most.load(), now);
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            --inside;
        });
    for (auto& t : threads) t.join();
    CHECK(most.load() == 1);
}

#endif
