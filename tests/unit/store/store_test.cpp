// The store's files: odd states get clear words, writes are atomic and only
// under the store lock, the lock re-reads what other processes wrote.
#include <doctest/doctest.h>

#ifndef _WIN32
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <stdexcept>

#include "store/config.hpp"
#include "store/store.hpp"
#include "test_support.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

using namespace cudaenv;
using namespace testsupport;
namespace fs = std::filesystem;

namespace {


// The Error loading the store's config throws: message and hint.
[[maybe_unused]] std::pair<std::string, std::string> config_error(Store& store) {
    try {
        store.config();
    } catch (const Error& e) {
        return {e.what(), e.hint()};
    }
    return {"", ""};
}

}  // namespace

#ifndef _WIN32  // symbolic links, FIFOs, fork
TEST_CASE("read_regular_file tells apart why a file cannot be read") {
    TempDir tmp("readfile");
    write(tmp / "f", "hello");
    auto r = fsx::read_regular_file(tmp / "f", 100);
    CHECK(r.status == fsx::ReadStatus::ok);
    CHECK(r.text == "hello");
    CHECK(fsx::read_regular_file(tmp / "f", 4).status == fsx::ReadStatus::too_large);
    CHECK(fsx::read_regular_file(tmp / "nope", 100).status == fsx::ReadStatus::missing);
    CHECK(fsx::read_regular_file(tmp.path(), 100).status == fsx::ReadStatus::not_a_file);
    CHECK(fsx::read_regular_file(tmp / "f" / "x", 100).status == fsx::ReadStatus::not_a_folder);
    fs::create_symlink("loop", tmp / "loop");
    CHECK(fsx::read_regular_file(tmp / "loop", 100).status == fsx::ReadStatus::link_loop);
    fs::create_symlink("gone", tmp / "dangling");
    CHECK(fsx::read_regular_file(tmp / "dangling", 100).status == fsx::ReadStatus::missing);
    // A FIFO is never opened: reading it would block until a writer comes.
    REQUIRE(::mkfifo((tmp / "fifo").c_str(), 0600) == 0);
    CHECK(fsx::read_regular_file(tmp / "fifo", 100).status == fsx::ReadStatus::not_a_file);
}

#endif

TEST_CASE("write_file_atomic replaces the whole file and leaves nothing beside it") {
    TempDir tmp("atomic");
    auto file = tmp / "sub" / "f.toml";
    fsx::write_file_atomic(file, "one");
    fsx::write_file_atomic(file, "two");
    CHECK(read(file) == "two");
    size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp / "sub")) ++entries;
    CHECK(entries == 1);
    // A folder in the way: a clear error, the folder untouched.
    fs::create_directories(tmp / "dir.toml" / "inside");
    CHECK_THROWS_AS(fsx::write_file_atomic(tmp / "dir.toml", "x"), Error);
    CHECK(fs::is_directory(tmp / "dir.toml" / "inside"));
}

#ifndef _WIN32
TEST_CASE("odd store states get one clear error naming the path") {
    TempDir tmp("odd");
    SUBCASE("config.toml over 16 MiB") {
        Store store(tmp / "store");
        write(store.config_file(), std::string((16u << 20) + 1, '#'));
        auto [msg, hint] = config_error(store);
        CHECK(contains(msg, fsx::to_utf8(store.config_file())));
        CHECK(contains(msg, "larger than 16 MiB"));
        CHECK_FALSE(hint.empty());
    }
    SUBCASE("config.toml a symbolic link that loops") {
        Store store(tmp / "store");
        fs::create_directories(store.root());
        fs::create_symlink("config.toml", store.config_file());
        auto [msg, hint] = config_error(store);
        CHECK(contains(msg, "config.toml' is a symbolic link that loops"));
        CHECK(contains(hint, "remove the link"));
    }
    SUBCASE("config.toml a folder or a FIFO") {
        Store store(tmp / "store");
        fs::create_directories(store.config_file());
        CHECK(contains(config_error(store).first, "is not a regular file"));
        fs::remove(store.config_file());
        REQUIRE(::mkfifo(store.config_file().c_str(), 0600) == 0);
        CHECK(contains(config_error(store).first, "is not a regular file"));
    }
    SUBCASE("the store is a regular file") {
        write(tmp / "store", "x");
        Store store(tmp / "store");
        auto [msg, hint] = config_error(store);
        CHECK(msg == "the store '" + fsx::to_utf8(tmp / "store") + "' is a file, not a folder");
        CHECK(contains(hint, "CUDAENV_ROOT"));
        CHECK_THROWS_AS((void)store.lock(), Error);
        CHECK(read(tmp / "store") == "x");
    }
    SUBCASE("a config that would crash toml++") {
        Store store(tmp / "store");
        std::string key;
        for (int i = 0; i < 400000; ++i) key += "a.";
        write(store.config_file(), key + "a = 1\n");
        CHECK(contains(config_error(store).first, "config.toml:1:"));
        write(store.config_file(), "[[[x");
        Store again(tmp / "store");
        CHECK(contains(config_error(again).first, "a table header must start with a key"));
    }
}

#endif

TEST_CASE("Store::lock: writes only under it; taking it re-reads config.toml in place") {
    TempDir tmp("lock");
    Store store(tmp / "store");
    auto& cfg = store.config();
    cfg.global = "12.4";
    CHECK_THROWS_AS(store.save_config(), std::logic_error);
    CHECK_FALSE(fs::exists(store.config_file()));

    // Another process writes meanwhile.
    Config other;
    other.pins["11.8.0"] = "8.9.7";
    fs::create_directories(store.root());
    other.save(store.config_file());
    {
        auto lock = store.lock();
        CHECK(store.locked());
        CHECK(&store.config() == &cfg);      // same object: references stay valid
        CHECK_FALSE(cfg.global.has_value());  // re-read: the change made before the lock is gone
        CHECK(cfg.pins.at("11.8.0") == "8.9.7");
        cfg.global = "12.4";
        {
            auto nested = store.lock();  // free, and does not re-read
            CHECK(cfg.global == "12.4");
        }
        CHECK(store.locked());
        store.save_config();
    }
    CHECK_FALSE(store.locked());
    auto back = Config::load(store.config_file());
    CHECK(back.global == "12.4");
    CHECK(back.pins.at("11.8.0") == "8.9.7");
    CHECK(fs::exists(store.lock_file()));
}

#ifndef _WIN32
TEST_CASE("Store::lock excludes another process") {
    TempDir tmp("lock-proc");
    Store store(tmp / "store");
    int to_child[2], to_parent[2];
    REQUIRE(::pipe(to_child) == 0);
    REQUIRE(::pipe(to_parent) == 0);
    // Fork before locking: a child would share the parent's open lock file.
    pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        // The child takes the lock on its own Store once the parent holds it.
        char c = 0;
        (void)!::read(to_child[0], &c, 1);
        Store mine(tmp / "store");
        Store::WriteLock l(mine);
        (void)!::write(to_parent[1], "L", 1);
        (void)!::read(to_child[0], &c, 1);
        ::_exit(0);
    }
    auto lock = std::make_optional<Store::WriteLock>(store);
    (void)!::write(to_child[1], "g", 1);
    ::usleep(300 * 1000);
    // The child has not got the lock while we hold it.
    fd_set set;
    FD_ZERO(&set);
    FD_SET(to_parent[0], &set);
    timeval tv{0, 0};
    CHECK(::select(to_parent[0] + 1, &set, nullptr, nullptr, &tv) == 0);
    lock.reset();
    char c = 0;
    REQUIRE(::read(to_parent[0], &c, 1) == 1);
    CHECK(c == 'L');
    (void)!::write(to_child[1], "x", 1);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
}
#endif
