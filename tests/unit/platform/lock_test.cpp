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
#include <filesystem>

TEST_CASE("FileLock: shared holders together, exclusive alone") {
    testsupport::TempDir t("lock");
    const auto file = t / "gpu.lock";
    using Mode = cudaenv::platform::FileLock::Mode;
    {
        cudaenv::platform::FileLock a(file, false, Mode::shared);
        cudaenv::platform::FileLock b(file, false, Mode::shared);
        CHECK(a.locked());
        CHECK(b.locked());
        CHECK_FALSE(cudaenv::platform::FileLock(file, false, Mode::exclusive).locked());
    }
    cudaenv::platform::FileLock x(file, false, Mode::exclusive);
    CHECK(x.locked());
    CHECK_FALSE(cudaenv::platform::FileLock(file, false, Mode::shared).locked());
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
