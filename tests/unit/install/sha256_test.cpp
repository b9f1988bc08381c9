// Unit tests of sha256 and sizes (install/sha256).
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
