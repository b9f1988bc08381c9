#include <doctest/doctest.h>

#include <algorithm>

#include "core/lockfile.hpp"
#include "test_support.hpp"
#include "util/error.hpp"

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

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("LockFile: written in one order, read back exactly") {
    auto text = sample().to_toml();
    CHECK(text.starts_with("# cudaenv.lock: the exact CUDA + cuDNN pair of this project, written by `cudaenv lock`.\n"));
    CHECK(has(text, "\nformat = 1\n"));
    CHECK(has(text, "platforms = [ \"linux-x86_64\", \"windows-x86_64\" ]"));
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
    CHECK(has(text, "it cannot be reproduced by download"));
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
        CHECK(has(hint, "cudaenv lock"));
    }
    SUBCASE("a newer format") {
        auto msg = error_of(replaced(good, "format = 1", "format = 2\nnew_thing = { x = 1 }"), &hint);
        CHECK(has(msg, "/p/cudaenv.lock was written by a newer cudaenv (lock format 2; this cudaenv reads format 1)"));
        CHECK(has(hint, "update cudaenv"));
    }
    SUBCASE("damaged entries name their line") {
        CHECK(has(error_of(replaced(good, "sha256 = \"" + kSha, "sha256 = \"xyz")), "'sha256' is not 64 hex digits"));
        CHECK(has(error_of(replaced(good, "size = 7", "size = -7")), "'size' must be a number of bytes"));
        CHECK(has(error_of(replaced(good, "cuda_nvcc/windows-x86_64/cuda_nvcc", "../../../etc")), "not a safe relative path"));
        CHECK(has(error_of(replaced(good, "product = \"cudnn\"", "product = \"other\"")), "'product' must be"));
        CHECK(has(error_of(replaced(good, "platform = \"windows-x86_64\"", "platform = \"linux-sbsa\"")),
                  "platform 'linux-sbsa' is not in 'platforms'"));
        CHECK(has(error_of(replaced(good, "spec = \"12.6+9.8\"", "spec = \"$(rm -rf /)\"")), "'spec' is not a spec"));
        CHECK(has(error_of("format = 1\n"), "/p/cudaenv.lock:1:1: 'spec' is missing"));
        CHECK(has(error_of("spec = 3\n"), "no format version"));
        CHECK(has(error_of("not toml ["), "/p/cudaenv.lock:1:"));
    }
}

TEST_CASE("LockFile::load and lock_path_for") {
    TempDir tmp("lockfile");
    CHECK(lock_path_for(tmp / ".cudaenv") == tmp / "cudaenv.lock");
    CHECK_THROWS_WITH_AS(LockFile::load(tmp / "cudaenv.lock"), doctest::Contains("there is no"), Error);
    write(tmp / "cudaenv.lock", sample().to_toml());
    CHECK(LockFile::load(tmp / "cudaenv.lock").cuda_release == "12.6.3");
}
