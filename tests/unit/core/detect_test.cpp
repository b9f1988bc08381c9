// Detection on synthetic trees: empty files stand in for libraries, tiny
// headers and version.json files carry the versions.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>

#include "core/detect.hpp"
#include "store/detect_cache.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"
#include "test_support.hpp"

using namespace cudaenv;
using testsupport::TempDir;
using testsupport::write;

namespace {

using testsupport::V;

std::string cudnn_header(int major, int minor, int patch) {
    // cuDNN 8 and 9 use different formulas for CUDNN_VERSION.
    std::string formula = major >= 9 ? "(CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)"
                                     : "(CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)";
    return "/* Copyright NVIDIA */\n#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n"
           "#define CUDNN_MAJOR " + std::to_string(major) + "\n#define CUDNN_MINOR " + std::to_string(minor) +
           "\n#define CUDNN_PATCHLEVEL " + std::to_string(patch) + "\n\n#define CUDNN_VERSION " + formula +
           "\n\n#define CUDNN_MAX_SM_MAJOR_NUMBER 9\n#endif\n";
}

std::string version_json(const std::string& v) {
    return "{\n   \"cuda\" : {\n      \"name\" : \"CUDA SDK\",\n      \"version\" : \"" + v +
           "\"\n   },\n   \"cuda_cudart\" : {\n      \"name\" : \"CUDA Runtime (cudart)\",\n      \"version\" : "
           "\"12.6.77\"\n   },\n   \"nvidia_driver\" : {\"name\":\"NVIDIA Linux Driver\",\"version\":\"520.61.05\"}\n}\n";
}

fs::path N(const fs::path& p) { return p.lexically_normal(); }

// Keeps `tk` detected anew in the store's cache, with `folder`'s mtime set 5 s
// back first: some file systems keep whole-second mtimes, and the change a
// test makes next must show. (Wine cannot set a folder's time: EACCES; its
// file times are fine-grained.)
void detect_afresh(const fs::path& store, const fs::path& tk, const fs::path& folder) {
    std::error_code ec;
    fs::last_write_time(folder, fs::last_write_time(folder) - std::chrono::seconds(5), ec);
    DetectionCache warm(store);
    warm.refresh();
    warm.toolkit(tk);
    warm.save();
}

}  // namespace

TEST_CASE("cuda_version_from_version_json") {
    CHECK(cuda_version_from_version_json(version_json("12.6.3")) == V("12.6.3"));
    SUBCASE("a build date as the third field keeps major.minor") {
        CHECK(cuda_version_from_version_json(version_json("11.8.20220929")) == V("11.8"));
    }
    SUBCASE("malformed") {
        CHECK_FALSE(cuda_version_from_version_json("").has_value());
        CHECK_FALSE(cuda_version_from_version_json("{").has_value());
        CHECK_FALSE(cuda_version_from_version_json("[]").has_value());
        CHECK_FALSE(cuda_version_from_version_json("{\"cuda\": \"12.6\"}").has_value());
        CHECK_FALSE(cuda_version_from_version_json("{\"cuda\": {\"version\": 12.6}}").has_value());
        CHECK_FALSE(cuda_version_from_version_json("{\"cuda\": {\"version\": \"twelve\"}}").has_value());
        CHECK_FALSE(cuda_version_from_version_json("{\"cuda_cudart\": {\"version\": \"12.6.77\"}}").has_value());
    }
}

TEST_CASE("cuda_version_from_header") {
    CHECK(cuda_version_from_header("#define CUDART_VERSION  12060\n") == V("12.6"));
    CHECK(cuda_version_from_header("#define CUDA_VERSION 11080\n") == V("11.8"));
    CHECK(cuda_version_from_header("#  define CUDART_VERSION 13000 /* x */\n") == V("13.0"));
    CHECK(cuda_version_from_header("#define CUDART_VERSION 12090\n#define CUDA_VERSION 11000\n") == V("12.9"));
    CHECK_FALSE(cuda_version_from_header("#define CUDART_VERSION_X 12060\n").has_value());
    CHECK_FALSE(cuda_version_from_header("no defines").has_value());
    CHECK_FALSE(cuda_version_from_header("#define CUDART_VERSION 99999999999\n").has_value());
}

TEST_CASE("cudnn_version_from_header") {
    SUBCASE("cuDNN 8 formula (8907)") { CHECK(cudnn_version_from_header(cudnn_header(8, 9, 7)) == V("8.9.7")); }
    SUBCASE("cuDNN 9 formula (90600)") { CHECK(cudnn_version_from_header(cudnn_header(9, 6, 0)) == V("9.6.0")); }
    SUBCASE("two-digit minor") { CHECK(cudnn_version_from_header(cudnn_header(9, 14, 0)) == V("9.14.0")); }
    SUBCASE("incomplete") {
        CHECK_FALSE(cudnn_version_from_header("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n").has_value());
        CHECK_FALSE(cudnn_version_from_header("").has_value());
    }
}

TEST_CASE("cuda_major_from_archive_name") {
    CHECK(cuda_major_from_archive_name("cudnn-linux-x86_64-8.9.7.29_cuda11-archive") == 11);
    CHECK(cuda_major_from_archive_name("cudnn-windows-x86_64-9.13.0.50_cuda13-archive.zip") == 13);
    CHECK(cuda_major_from_archive_name("cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz") == 12);
    CHECK(cuda_major_from_archive_name("cudnn") == 0);
    CHECK(cuda_major_from_archive_name("cudnn_cuda-archive") == 0);
    CHECK(cuda_major_from_archive_name("cudnn_cuda12x-archive") == 0);
    CHECK(cuda_major_from_archive_name("a_cuda11-archive/b_cuda12-archive") == 12);
    CHECK(cuda_major_from_archive_name("_cuda9-archive") == 9);
    CHECK(cuda_major_from_archive_name("") == 0);
    CHECK(cuda_major_from_archive_name("x_cuda99999999999-archive") == 0);
}

TEST_CASE("detect_toolkit") {
    TempDir tmp("detect");
    SUBCASE("linux toolkit with version.json") {
        auto root = tmp / "cuda-12.6";
        write(root / "bin" / "nvcc");
        write(root / "version.json", version_json("12.6.3"));
        write(root / "lib64" / "libcudart.so.12.6.77");
        write(root / "include" / "cuda_runtime_api.h", "#define CUDART_VERSION 12060\n");
        auto tk = detect_toolkit(root);
        REQUIRE(tk.has_value());
        CHECK(tk->version == V("12.6.3"));
        CHECK(tk->version_source == "version.json");
        CHECK(layout::name(tk->layout) == "standard");
        CHECK_FALSE(tk->windows);
        CHECK(tk->root == N(root));
        CHECK(tk->bin_dirs == std::vector<fs::path>{N(root / "bin")});
        CHECK(tk->lib_dirs == std::vector<fs::path>{N(root / "lib64")});
    }
    SUBCASE("version.json with a build date") {
        auto root = tmp / "cuda-11.8";
        write(root / "bin" / "nvcc");
        write(root / "version.json", version_json("11.8.20220929"));
        auto tk = detect_toolkit(root);
        REQUIRE(tk.has_value());
        CHECK(tk->version == V("11.8"));
    }
    SUBCASE("only include/cuda_runtime_api.h for the version") {
        auto root = tmp / "cuda";
        write(root / "bin" / "nvcc");
        write(root / "include" / "cuda_runtime_api.h", "#ifndef X\n#define CUDART_VERSION  12060\n#endif\n");
        auto tk = detect_toolkit(root);
        REQUIRE(tk.has_value());
        CHECK(tk->version == V("12.6"));
        CHECK(tk->version_source == "cuda_runtime_api.h");
        CHECK(tk->lib_dirs.empty());
    }
    SUBCASE("only targets/x86_64-linux/lib/libcudart.so.12.6.77") {
        auto root = tmp / "cuda";
        write(root / "targets" / "x86_64-linux" / "lib" / "libcudart.so.12.6.77");
        write(root / "targets" / "x86_64-linux" / "lib" / "libcudart.so.12");
        auto tk = detect_toolkit(root);
        REQUIRE(tk.has_value());
        CHECK(tk->version == V("12.6.77"));
        CHECK(tk->version_source == "libcudart.so.12.6.77");
        CHECK(tk->lib_dirs == std::vector<fs::path>{N(root / "targets" / "x86_64-linux" / "lib")});
    }
    SUBCASE("runtime-only folder") {
        auto root = tmp / "libcudart11";
        write(root / "libcudart.so.11.0");
        write(root / "libcudart.so.11.8.89");
        auto tk = detect_toolkit(root);
        REQUIRE(tk.has_value());
        CHECK(tk->version == V("11.8.89"));
        CHECK(layout::name(tk->layout) == "runtime-only");
        CHECK(tk->lib_dirs == std::vector<fs::path>{N(root)});
        CHECK(tk->bin_dirs.empty());
    }
    SUBCASE("windows toolkit 12.x") {
        auto root = tmp / "NVIDIA GPU Computing Toolkit" / "CUDA" / "v12.6";
        write(root / "bin" / "cudart64_12.dll");
        write(root / "bin" / "nvcc.exe");
        write(root / "lib" / "x64" / "cudart.lib");
        write(root / "version.json", version_json("12.6.3"));
        auto tk = detect_toolkit(root);
        REQUIRE(tk.has_value());
        CHECK(tk->windows);
        CHECK(tk->version == V("12.6.3"));
        CHECK(tk->bin_dirs == std::vector<fs::path>{N(root / "bin")});
        CHECK(tk->lib_dirs.empty());
        SUBCASE("without version.json: the header, else the DLL name") {
            fs::remove(root / "version.json");
            write(root / "include" / "cuda_runtime_api.h", "#define CUDART_VERSION 12060\n");
            CHECK(detect_toolkit(root)->version == V("12.6"));
            fs::remove(root / "include" / "cuda_runtime_api.h");
            auto tk2 = detect_toolkit(root);
            REQUIRE(tk2.has_value());
            CHECK(tk2->version == V("12"));
            CHECK(tk2->version_source == "cudart64_12.dll");
        }
    }
    SUBCASE("windows CUDA 11: cudart64_110.dll is any 11.x") {
        auto root = tmp / "v11.8";
        write(root / "bin" / "cudart64_110.dll");
        auto tk = detect_toolkit(root);
        REQUIRE(tk.has_value());
        CHECK(tk->version == V("11"));
    }
    SUBCASE("windows CUDA 13: DLLs in bin/x64") {
        auto root = tmp / "v13.0";
        write(root / "bin" / "x64" / "cudart64_13.dll");
        write(root / "bin" / "nvcc.exe");
        write(root / "lib" / "x64" / "cudart.lib");
        write(root / "version.json", version_json("13.0.2"));
        auto tk = detect_toolkit(root);
        REQUIRE(tk.has_value());
        CHECK(tk->windows);
        CHECK(tk->version == V("13.0.2"));
        CHECK(tk->bin_dirs == std::vector<fs::path>{N(root / "bin" / "x64"), N(root / "bin")});
        fs::remove(root / "version.json");
        CHECK(detect_toolkit(root)->version == V("13"));
    }
    SUBCASE("pip nvidia/cuda_runtime with its dist-info beside") {
        auto site = tmp / "venv" / "lib" / "python3.12" / "site-packages";
        auto root = site / "nvidia" / "cuda_runtime";
        write(root / "lib" / "libcudart.so.12");
        write(root / "include" / "cuda_runtime_api.h", "#define CUDART_VERSION 12060\n");
        write(root / "__init__.py");
        write(site / "nvidia_cuda_runtime_cu12-12.6.77.dist-info" / "METADATA", "Name: nvidia-cuda-runtime-cu12\n");
        auto tk = detect_toolkit(root);
        REQUIRE(tk.has_value());
        CHECK(layout::name(tk->layout) == "pip");
        CHECK(tk->version == V("12.6.77"));
        CHECK(tk->version_source == "pip metadata");
        CHECK(tk->lib_dirs == std::vector<fs::path>{N(root / "lib")});
    }
    SUBCASE("Debian's nvidia-cuda-toolkit folder") {
        auto root = tmp / "usr" / "lib" / "nvidia-cuda-toolkit";
        write(root / "bin" / "nvcc");
        write(root / "include" / "cuda_runtime_api.h", "#define CUDART_VERSION 12040\n");
        auto tk = detect_toolkit(root);
        REQUIRE(tk.has_value());
        CHECK(layout::name(tk->layout) == "debian");
        CHECK(tk->version == V("12.4"));
        CHECK(tk->bin_dirs == std::vector<fs::path>{N(root / "bin")});
    }
    SUBCASE("a trailing slash or .. in the path gives the same root") {
        auto root = tmp / "cuda";
        write(root / "bin" / "nvcc");
        write(root / "version.json", version_json("12.6.3"));
        CHECK(detect_toolkit(fs::path(root.string() + "/"))->root == N(root));
        CHECK(detect_toolkit(root / "bin" / "..")->root == N(root));
    }
    SUBCASE("a folder that is neither") {
        auto root = tmp / "other";
        write(root / "bin" / "python3");
        write(root / "lib" / "libfoo.so.1");
        write(root / "include" / "foo.h", "#define CUDART_VERSION 12060\n");
        CHECK_FALSE(detect_toolkit(root).has_value());
        CHECK(detect_cudnns(root).empty());
        CHECK_FALSE(detect_toolkit(tmp / "missing").has_value());
        CHECK(detect_cudnns(tmp / "missing").empty());
        write(tmp / "file");
        CHECK_FALSE(detect_toolkit(tmp / "file").has_value());
        CHECK(detect_cudnns(tmp / "file").empty());
    }
    SUBCASE("nvcc but no version anywhere: not a toolkit") {
        auto root = tmp / "broken";
        write(root / "bin" / "nvcc");
        CHECK_FALSE(detect_toolkit(root).has_value());
    }
}

TEST_CASE("detect_cudnns") {
    TempDir tmp("cudnn");
    SUBCASE("linux archive: cuDNN 8 header, CUDA major from the folder name") {
        auto root = tmp / "cudnn-linux-x86_64-8.9.7.29_cuda11-archive";
        write(root / "include" / "cudnn_version.h", cudnn_header(8, 9, 7));
        write(root / "include" / "cudnn.h");
        write(root / "lib" / "libcudnn.so.8.9.7");
        write(root / "lib" / "libcudnn.so.8");
        write(root / "lib" / "libcudnn.so");
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        const auto& c = all[0];
        CHECK(c.version == V("8.9.7"));
        CHECK(c.cuda_major == 11);
        CHECK(c.cuda_major_source == "folder name");
        CHECK(layout::name(c.layout) == "archive");
        CHECK_FALSE(c.windows);
        CHECK(c.variant.empty());
        CHECK(c.root == N(root));
        CHECK(c.lib_dirs == std::vector<fs::path>{N(root / "lib")});
        CHECK(c.include_dir == N(root / "include"));
    }
    SUBCASE("an archive unpacked into a folder of its own") {
        auto root = tmp / "cudnn-linux-x86_64-9.1.0.70_cuda12-archive" / "x";
        write(root / "include" / "cudnn_version.h", cudnn_header(9, 1, 0));
        write(root / "lib" / "libcudnn.so.9");
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        CHECK(all[0].cuda_major == 12);
    }
    SUBCASE("cuDNN 9 header formula; the store's folder name") {
        auto root = tmp / "cudnn" / "9.6.0_cuda12";
        write(root / "include" / "cudnn_version.h", cudnn_header(9, 6, 0));
        write(root / "lib" / "libcudnn.so.9.6.0");
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        CHECK(all[0].version == V("9.6.0"));
        CHECK(all[0].cuda_major == 12);
    }
    SUBCASE("only cudnn_version_v9.h") {
        auto root = tmp / "c9";
        write(root / "include" / "cudnn_version_v9.h", cudnn_header(9, 14, 0));
        write(root / "lib" / "libcudnn.so.9");
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        CHECK(all[0].version == V("9.14.0"));
        CHECK(all[0].cuda_major == 0);  // nothing says which CUDA
    }
    SUBCASE("no header: the library name") {
        auto root = tmp / "flat";
        write(root / "libcudnn.so.9.1.0");
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        CHECK(all[0].version == V("9.1.0"));
        CHECK(layout::name(all[0].layout) == "flat");
        CHECK(all[0].lib_dirs == std::vector<fs::path>{N(root)});
    }
    SUBCASE("windows zip layout (bin, lib/x64)") {
        auto root = tmp / "cudnn-windows-x86_64-8.9.7.29_cuda12-archive";
        write(root / "bin" / "cudnn64_8.dll");
        write(root / "bin" / "cudnn_ops_infer64_8.dll");
        write(root / "lib" / "x64" / "cudnn.lib");
        write(root / "include" / "cudnn_version.h", cudnn_header(8, 9, 7));
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        const auto& c = all[0];
        CHECK(c.windows);
        CHECK(c.version == V("8.9.7"));
        CHECK(c.cuda_major == 12);
        CHECK(c.bin_dirs == std::vector<fs::path>{N(root / "bin")});
        CHECK(c.lib_dirs.empty());
    }
    SUBCASE("windows zip layout >= 9.18 (bin/x64)") {
        auto root = tmp / "cudnn-windows-x86_64-9.18.0.70_cuda13-archive";
        write(root / "bin" / "x64" / "cudnn64_9.dll");
        write(root / "bin" / "x64" / "cudnn_graph64_9.dll");
        write(root / "lib" / "x64" / "cudnn.lib");
        write(root / "include" / "cudnn_version.h", cudnn_header(9, 18, 0));
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        CHECK(all[0].version == V("9.18.0"));
        CHECK(all[0].cuda_major == 13);
        CHECK(all[0].bin_dirs == std::vector<fs::path>{N(root / "bin" / "x64")});
    }
    SUBCASE("windows installer: one build per CUDA subfolder, bin/<cuda>/") {
        auto root = tmp / "NVIDIA" / "CUDNN" / "v9.1";
        write(root / "bin" / "12.6" / "cudnn64_9.dll");
        write(root / "bin" / "11.8" / "cudnn64_9.dll");
        write(root / "include" / "12.6" / "cudnn_version.h", cudnn_header(9, 1, 0));
        write(root / "include" / "11.8" / "cudnn_version.h", cudnn_header(9, 1, 0));
        write(root / "lib" / "12.6" / "x64" / "cudnn.lib");
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 2);
        std::sort(all.begin(), all.end(), [](const Cudnn& a, const Cudnn& b) { return a.variant < b.variant; });
        CHECK(all[0].variant == "11.8");
        CHECK(all[0].cuda_major == 11);
        CHECK(all[1].variant == "12.6");
        CHECK(all[1].cuda_major == 12);
        for (const auto& c : all) {
            CHECK(layout::name(c.layout) == "installer");
            CHECK(c.version == V("9.1.0"));
            CHECK(c.windows);
            CHECK(c.root == N(root));
            CHECK(c.bin_dirs == std::vector<fs::path>{N(root / "bin" / c.variant)});
            CHECK(c.include_dir == N(root / "include" / c.variant));
        }
        auto one = detect_cudnn(root, "12.6");
        REQUIRE(one.has_value());
        CHECK(one->variant == "12.6");
        CHECK_FALSE(detect_cudnn(root, "13.0").has_value());
    }
    SUBCASE("windows installer: headers in include/ only, version from the folder name at worst") {
        auto root = tmp / "NVIDIA" / "CUDNN" / "v9.4";
        write(root / "bin" / "12.6" / "cudnn64_9.dll");
        write(root / "include" / "cudnn_version.h", cudnn_header(9, 4, 0));
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        CHECK(all[0].version == V("9.4.0"));
        fs::remove(root / "include" / "cudnn_version.h");
        all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        CHECK(all[0].version == V("9.4"));
    }
    SUBCASE("windows installer: newer bin/<cuda>/x64 with include/<cuda>") {
        auto root = tmp / "NVIDIA" / "CUDNN" / "v9.19";
        write(root / "bin" / "12.9" / "x64" / "cudnn64_9.dll");
        write(root / "bin" / "13.1" / "x64" / "cudnn64_9.dll");
        write(root / "include" / "12.9" / "cudnn_version.h", cudnn_header(9, 19, 0));
        write(root / "include" / "13.1" / "cudnn_version.h", cudnn_header(9, 19, 0));
        write(root / "lib" / "12.9" / "x64" / "cudnn.lib");
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 2);
        std::sort(all.begin(), all.end(), [](const Cudnn& a, const Cudnn& b) { return a.variant < b.variant; });
        CHECK(all[0].variant == "12.9");
        CHECK(all[0].cuda_major == 12);
        CHECK(all[0].bin_dirs == std::vector<fs::path>{N(root / "bin" / "12.9" / "x64")});
        CHECK(all[1].cuda_major == 13);
        CHECK(all[1].version == V("9.19.0"));
    }
    SUBCASE("pip nvidia/cudnn with its dist-info beside") {
        auto site = tmp / "lib" / "python3.11" / "site-packages";
        auto root = site / "nvidia" / "cudnn";
        write(root / "lib" / "libcudnn.so.9");
        write(root / "lib" / "libcudnn_graph.so.9");
        write(root / "include" / "cudnn_version.h", cudnn_header(9, 1, 0));
        write(site / "nvidia_cudnn_cu12-9.1.0.70.dist-info" / "METADATA");
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        CHECK(layout::name(all[0].layout) == "pip");
        CHECK(all[0].version == V("9.1.0.70"));
        CHECK(all[0].cuda_major == 12);
        CHECK(all[0].cuda_major_source == "pip metadata");
        CHECK(all[0].lib_dirs == std::vector<fs::path>{N(root / "lib")});
    }
    SUBCASE("a toolkit is not a cuDNN") {
        auto root = tmp / "cuda";
        write(root / "bin" / "nvcc");
        write(root / "lib64" / "libcudart.so.12.6.77");
        write(root / "version.json", version_json("12.6.3"));
        CHECK(detect_cudnns(root).empty());
    }
}

TEST_CASE("cuda_major_from_dpkg") {
    TempDir tmp;
    auto info = tmp.path() / "info";
    std::filesystem::create_directories(info);
    SUBCASE("no package") { CHECK(cuda_major_from_dpkg(info, 9) == 0); }
    SUBCASE("NVIDIA's libcudnn9-cuda-13 package") {
        write(info / "libcudnn9-cuda-13.list", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0\n");
        write(info / "libcudnn9-cuda-13:amd64.md5sums", "");
        CHECK(cuda_major_from_dpkg(info, 9) == 13);
        CHECK(cuda_major_from_dpkg(info, 8) == 0);
    }
    SUBCASE("builds for two CUDA majors cannot be told apart") {
        write(info / "libcudnn9-cuda-12.list", "");
        write(info / "libcudnn9-cuda-13:amd64.list", "");
        CHECK(cuda_major_from_dpkg(info, 9) == 0);
    }
}

TEST_CASE("DetectionCache: detect once, keep it, detect again when a key file changes") {
    TempDir store("dc-store");
    TempDir tree("dc-tree");
    auto tk = tree / "cuda-12.6";
    write(tk / "bin" / "nvcc", "");
    write(tk / "lib64" / "libcudart.so.12", "");
    write(tk / "version.json", version_json("12.6.3"));
    {
        DetectionCache cache(store.path());
        auto t = cache.toolkit(tk);
        REQUIRE(t.has_value());
        CHECK(t->version == V("12.6.3"));
        CHECK(t->nvcc == N(tk / "bin" / "nvcc"));
        CHECK(cache.detections() == 1);
        CHECK(cache.toolkit(tk)->version == V("12.6.3"));
        CHECK(cache.detections() == 1);
    }
    CHECK(fs::exists(store / "cache" / "detected.txt"));
    SUBCASE("a second process reads the store, not the folder") {
        DetectionCache cache(store.path());
        auto t = cache.toolkit(tk);
        REQUIRE(t.has_value());
        CHECK(cache.detections() == 0);
        CHECK(t->lib_dirs == std::vector<fs::path>{N(tk / "lib64")});
        CHECK(t->bin_dirs == std::vector<fs::path>{N(tk / "bin")});
        CHECK(t->nvcc == N(tk / "bin" / "nvcc"));
        CHECK(t->version_source == "version.json");
    }
    SUBCASE("a rewritten version.json") {
        write(tk / "version.json", version_json("12.6.30"));  // another size
        DetectionCache cache(store.path());
        CHECK(cache.toolkit(tk)->version == V("12.6.30"));
        CHECK(cache.detections() == 1);
    }
    SUBCASE("a folder that has gone") {
        fs::remove_all(tk);
        DetectionCache cache(store.path());
        CHECK_FALSE(cache.toolkit(tk).has_value());
    }
    SUBCASE("a new library folder (its parent's mtime changes)") {
        detect_afresh(store.path(), tk, tk);
        fs::create_directories(tk / "targets" / "x86_64-linux" / "lib");
        write(tk / "targets" / "x86_64-linux" / "lib" / "libcudart.so.12", "");
        fs::remove_all(tk / "lib64");
        DetectionCache cache(store.path());
        auto t = cache.toolkit(tk);
        CHECK(cache.detections() == 1);
        CHECK(t->lib_dirs == std::vector<fs::path>{N(tk / "targets" / "x86_64-linux" / "lib")});
    }
    SUBCASE("a file that appears in a folder of the key (absent paths below such folders are not stat'ed)") {
        fs::create_directories(tk / "include");
        detect_afresh(store.path(), tk, tk / "include");
        write(tk / "include" / "cuda_runtime_api.h", "#define CUDART_VERSION 12060\n");
        DetectionCache cache(store.path());
        cache.toolkit(tk);
        CHECK(cache.detections() == 1);
    }
    SUBCASE("refresh forgets everything; forget one folder") {
        DetectionCache cache(store.path());
        cache.forget(tk);
        cache.toolkit(tk);
        CHECK(cache.detections() == 1);
        cache.refresh();
        cache.toolkit(tk);
        CHECK(cache.detections() == 2);
    }
    SUBCASE("a damaged cache file is no cache") {
        auto id = "toolkit\n" + fsx::to_utf8(fsx::absolute_normal(tk));
        auto rec = [](std::initializer_list<std::string> fields) {
            std::string out;
            records::put_record(out, std::vector<std::string_view>(fields.begin(), fields.end()));
            return out;
        };
        for (std::string text : {
                 std::string("cudaenv detection cache 1\n746f6f6c6b6974\t{not json\n"),  // the older format
                 "cudaenv detection cache 3\n" + rec({id, "0", "toolkit", "/x"}),           // too few fields
                 "cudaenv detection cache 3\n" + rec({id, "0", "toolkit", "/x", "not.a.version!", "s", "l", "0",
                                                      "0", "0", ""}),
                 "cudaenv detection cache 3\n" + rec({id, "7", "toolkit"}),  // more keys than fields
                 "cudaenv detection cache 3\n" + rec({id, "0", "null"}).substr(0, 20),  // cut short
                 "cudaenv detection cache 3\n99999:" + id + "\n",
             }) {
            CAPTURE(text);
            write(store / "cache" / "detected.txt", text);
            DetectionCache cache(store.path());
            CHECK(cache.toolkit(tk)->version == V("12.6.3"));
            CHECK(cache.detections() == 1);
        }
    }
}

TEST_CASE("DetectionCache: a folder whose name holds a newline, a tab and a colon") {
    if (platform::is_windows) return;  // such names cannot be made there
    TempDir store("dc-store");
    TempDir tree("dc-tree");
    auto tk = tree / "cuda 12.6\n\t:x";
    write(tk / "bin" / "nvcc", "");
    write(tk / "lib64" / "libcudart.so.12", "");
    write(tk / "version.json", version_json("12.6.3"));
    {
        DetectionCache cache(store.path());
        REQUIRE(cache.toolkit(tk).has_value());
    }
    DetectionCache cache(store.path());
    auto t = cache.toolkit(tk);
    REQUIRE(t.has_value());
    CHECK(cache.detections() == 0);
    CHECK(t->root == N(tk));
    CHECK(t->lib_dirs == std::vector<fs::path>{N(tk / "lib64")});
    CHECK(t->nvcc == N(tk / "bin" / "nvcc"));
}

TEST_CASE("DetectionCache: cuDNN") {
    TempDir store("dc-store");
    TempDir tree("dc-tree");
    auto c = tree / "cudnn-linux-x86_64-9.1.0.70_cuda12-archive";
    write(c / "include" / "cudnn_version.h", cudnn_header(9, 1, 0));
    write(c / "lib" / "libcudnn.so.9", "");
    {
        DetectionCache cache(store.path());
        auto d = cache.cudnn(c, "");
        REQUIRE(d.has_value());
        CHECK(d->version == V("9.1.0"));
        CHECK(d->cuda_major == 12);
    }
    DetectionCache cache(store.path());
    auto d = cache.cudnn(c, "");
    CHECK(cache.detections() == 0);
    CHECK(d->cuda_major_source == "folder name");
    CHECK(d->include_dir == N(c / "include"));
    write(c / "include" / "cudnn_version.h", cudnn_header(9, 1, 1) + "\n");
    CHECK(cache.cudnn(c, "")->version == V("9.1.1"));
}
