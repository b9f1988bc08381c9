#include <doctest/doctest.h>

#include <algorithm>

#include "core/lockfile.hpp"
#include "test_support.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

using namespace cudaenv;
using testsupport::TempDir;
using testsupport::write;
namespace fs = std::filesystem;

namespace {

const std::string kSha(64, 'a');

LockFile sample() {
    LockFile l;
    l.spec = "12.6+9.8";
    l.pair = "12.6.3+9.8.0";
    l.mirror = "https://developer.download.nvidia.com/compute";
    l.platforms = {"windows-x86_64", "linux-x86_64"};  // written sorted
    l.cuda_release = "12.6.3";
    l.components["cuda_nvcc"] = {"CUDA NVCC", "12.6.85"};
    l.components["cuda_cudart"] = {"CUDA Runtime (cudart)", "12.6.77"};
    l.cudnn_version = "9.8.0.87";
    l.cudnn_release = "9.8.0";
    l.cudnn_name = "NVIDIA CUDA Deep Neural Network library";
    l.cudnn_cuda_major = 12;
    l.needs = {"525.60.13", "527.41", "5.0", "9.0"};
    l.archives = {
        {"windows-x86_64", "cuda", "cuda_nvcc", "cuda_nvcc/windows-x86_64/cuda_nvcc-windows-x86_64-12.6.85-archive.zip", 7, kSha},
        {"linux-x86_64", "cudnn", "cudnn", "cudnn/linux-x86_64/cudnn-linux-x86_64-9.8.0.87_cuda12-archive.tar.xz", 923946888, kSha},
        {"linux-x86_64", "cuda", "cuda_cudart", "cuda_cudart/linux-x86_64/cuda_cudart-linux-x86_64-12.6.77-archive.tar.xz", 1126072, kSha},
    };
    return l;
}

std::string error_of(const std::string& text, std::string* hint = nullptr) {
    try {
        LockFile::parse(text, "/p/cudaenv.lock");
    } catch (const Error& e) {
        if (hint) *hint = e.hint();
        return e.what();
    }
    return "";
}

using testsupport::contains;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("LockFile: written in one order, read back exactly") {
    auto text = sample().to_toml();
    CHECK(text.starts_with("# cudaenv.lock: the exact CUDA + cuDNN pair of this project, written by `cudaenv lock`.\n"));
    CHECK(contains(text, "\nformat = 1\n"));
    CHECK(contains(text, "platforms = [ \"linux-x86_64\", \"windows-x86_64\" ]"));
    // Archives sorted by platform, product, component, whatever order they came in.
    auto cudart = text.find("cuda_cudart-linux"), cudnn = text.find("cudnn-linux"), nvcc = text.find("cuda_nvcc-windows");
    CHECK(cudart < cudnn);
    CHECK(cudnn < nvcc);
    auto back = LockFile::parse(text, "cudaenv.lock");
    CHECK(back.to_toml() == text);
    CHECK(back.pair == "12.6.3+9.8.0");
    CHECK(back.cudnn_cuda_major == 12);
    CHECK(back.cudnn_release == "9.8.0");
    CHECK(back.components.at("cuda_nvcc").version == "12.6.85");
    CHECK(back.needs.driver_windows == "527.41");
    CHECK(back.archives_for("linux-x86_64").size() == 2);
    CHECK(back.archives_for("linux-x86_64")[1].size == 923946888);
    CHECK(back.has_platform("windows-x86_64"));
    CHECK_FALSE(back.has_platform("linux-sbsa"));
    auto shuffled = sample();
    std::swap(shuffled.archives[0], shuffled.archives[2]);
    CHECK(shuffled.to_toml() == text);
}

TEST_CASE("LockFile: an adopted pair says it cannot be downloaded") {
    auto l = sample();
    l.adopted = true;
    l.mirror.clear();
    l.archives.clear();
    l.files = {{"cuda/lib64/libcudart.so.12", 5, kSha}};
    auto text = l.to_toml();
    CHECK(contains(text, "it cannot be reproduced by download"));
    auto back = LockFile::parse(text, "cudaenv.lock");
    CHECK(back.adopted);
    REQUIRE(back.files.size() == 1);
    CHECK(back.files[0].path == "cuda/lib64/libcudart.so.12");
}

TEST_CASE("LockFile: what is not a lock cudaenv can use is refused, naming the file") {
    auto good = sample().to_toml();
    std::string hint;
    SUBCASE("merge-conflict markers, with their line") {
        auto text = replaced(good, "format = 1\n", "<<<<<<< HEAD\nformat = 1\n=======\nformat = 1\n>>>>>>> main\n");
        auto line = std::to_string(std::count(good.begin(), good.begin() + static_cast<long>(good.find("format")), '\n') + 1);
        auto msg = error_of(text, &hint);
        CHECK(msg == "/p/cudaenv.lock:" + line + ": has merge-conflict markers");
        CHECK(contains(hint, "cudaenv lock"));
    }
    SUBCASE("a newer format") {
        auto msg = error_of(replaced(good, "format = 1", "format = 2\nnew_thing = { x = 1 }"), &hint);
        CHECK(contains(msg, "/p/cudaenv.lock was written by a newer cudaenv (lock format 2; this cudaenv reads format 1)"));
        CHECK(contains(hint, "update cudaenv"));
    }
    SUBCASE("damaged entries name their line") {
        CHECK(contains(error_of(replaced(good, "sha256 = \"" + kSha, "sha256 = \"xyz")), "'sha256' is not 64 hex digits"));
        CHECK(contains(error_of(replaced(good, "size = 7", "size = -7")), "'size' must be a number of bytes"));
        CHECK(contains(error_of(replaced(good, "cuda_nvcc/windows-x86_64/cuda_nvcc", "../../../etc")), "not a safe relative path"));
        CHECK(contains(error_of(replaced(good, "product = \"cudnn\"", "product = \"other\"")), "'product' must be"));
        CHECK(contains(error_of(replaced(good, "platform = \"windows-x86_64\"", "platform = \"linux-sbsa\"")),
                  "platform 'linux-sbsa' is not in 'platforms'"));
        CHECK(contains(error_of(replaced(good, "spec = \"12.6+9.8\"", "spec = \"$(rm -rf /)\"")), "'spec' is not a spec"));
        CHECK(contains(error_of("format = 1\n"), "/p/cudaenv.lock:1:1: 'spec' is missing"));
        CHECK(contains(error_of("spec = 3\n"), "no format version"));
        CHECK(contains(error_of("not toml ["), "/p/cudaenv.lock:1:"));
    }
}

TEST_CASE("LockFile::load and lock_path_for") {
    TempDir tmp("lockfile");
    CHECK(lock_path_for(tmp / ".cudaenv") == tmp / "cudaenv.lock");
    CHECK_THROWS_WITH_AS(LockFile::load(tmp / "cudaenv.lock"), doctest::Contains("there is no"), Error);
    write(tmp / "cudaenv.lock", sample().to_toml());
    CHECK(LockFile::load(tmp / "cudaenv.lock").cuda_release == "12.6.3");
}

TEST_CASE("LockFile: the header, the tables and the archives must agree (issue 40, R3 and R7)") {
    auto good = sample().to_toml();
    SUBCASE("pair is [cuda].release + [cudnn].version, or +none exactly when there is no [cudnn]") {
        CHECK(contains(error_of(replaced(good, "pair = \"12.6.3+9.8.0\"", "pair = \"12.6.3+none\"")),
                  "'pair' is 12.6.3+none, but [cuda] and [cudnn] say 12.6.3+9.8.0"));
        CHECK(contains(error_of(replaced(good, "pair = \"12.6.3+9.8.0\"", "pair = \"11.8.0+8.9.7\"")), "'pair' is 11.8.0+8.9.7"));
        CHECK(contains(error_of(replaced(good, "pair = \"12.6.3+9.8.0\"", "pair = \"12.6+9.8\"")), "'pair' is 12.6+9.8"));
        auto no_cudnn = sample();
        no_cudnn.cudnn_version.clear();
        no_cudnn.archives.erase(no_cudnn.archives.begin() + 1);
        no_cudnn.pair = "12.6.3+none";
        CHECK(LockFile::parse(no_cudnn.to_toml(), "l").pair == "12.6.3+none");
        no_cudnn.pair = "12.6.3+9.8.0";
        CHECK(contains(error_of(no_cudnn.to_toml()), "but [cuda] and [cudnn] say 12.6.3+none"));
    }
    SUBCASE("an archive of at least one byte") {
        CHECK(contains(error_of(replaced(good, "size = 7", "size = 0")), "'size' must be a number of bytes (at least 1)"));
    }
    SUBCASE("no archive twice: the same platform, product and component, or the same file name") {
        auto twice = sample();
        twice.archives.push_back(twice.archives[2]);
        CHECK(contains(error_of(twice.to_toml()), "archive linux-x86_64 cuda cuda_cudart is listed twice"));
        auto renamed = sample();
        renamed.archives.push_back(renamed.archives[2]);
        renamed.archives.back().component = "cuda_nvcc";
        renamed.archives.back().relative_path = "elsewhere/cuda_cudart-linux-x86_64-12.6.77-archive.tar.xz";
        CHECK(contains(error_of(renamed.to_toml()), "its file name is listed twice"));
    }
    SUBCASE("at most kMaxLockArchives archives") {
        auto many = sample();
        for (size_t i = 0; i <= kMaxLockArchives; ++i) {
            many.components["c" + std::to_string(i)] = {"", "1.0"};
            many.archives.push_back({"linux-x86_64", "cuda", "c" + std::to_string(i), "c/c" + std::to_string(i) + ".tar.xz", 1, kSha});
        }
        CHECK(contains(error_of(many.to_toml()), "more than 500 archives"));
    }
    SUBCASE("every archive is one of the pair's parts") {
        CHECK(contains(error_of(replaced(good, "component = \"cuda_nvcc\"", "component = \"cuda_gdb\"")),
                  "component 'cuda_gdb' is not in [cuda.components]"));
        CHECK(contains(error_of(replaced(good, "cuda_variant = \"12\"", "cuda_variant = \"11\"")),
                  "needs the cuDNN build for CUDA 12"));
        auto stray = sample();
        stray.cudnn_version.clear();
        stray.pair = "12.6.3+none";
        CHECK(contains(error_of(stray.to_toml()), "a cuDNN archive, but no [cudnn]"));
    }
}

TEST_CASE("LockFile: a relative mirror folder is relative to the lock's folder (issue 40, D7)") {
    auto l = sample();
    CHECK(l.mirror_location("/p/cudaenv.lock") == l.mirror);
    l.mirror = "../mirror";
    CHECK(fs::path(l.mirror_location("/p/sub/cudaenv.lock")) == fsx::absolute_normal("/p/mirror"));  // Z:\p\mirror under Wine
    l.mirror = "/media/usb/m";
    CHECK(l.mirror_location("/p/sub/cudaenv.lock") == "/media/usb/m");
    // Typed from a subfolder, written relative to the lock: the same folder from anywhere.
    CHECK(lock_mirror_text("../../m", "/p/a/b", "/p/cudaenv.lock") == "m");
    CHECK(lock_mirror_text("../../../m", "/p/a/b", "/p/cudaenv.lock") == "../m");
    CHECK(lock_mirror_text("/abs/m", "/p/a", "/p/cudaenv.lock") == "/abs/m");
    CHECK(lock_mirror_text("http://127.0.0.1:8000/c", "/p/a", "/p/cudaenv.lock") == "http://127.0.0.1:8000/c");
}
