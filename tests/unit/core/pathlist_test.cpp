#include <doctest/doctest.h>

#include "core/activation.hpp"
#include "core/pathlist.hpp"

using namespace cudaenv;

namespace {
using List = std::vector<std::string>;
constexpr auto P = PathStyle::posix;
constexpr auto W = PathStyle::windows;
}  // namespace

TEST_CASE("split_path_list") {
    SUBCASE("empty string is an empty list, in both styles") {
        CHECK(split_path_list("", P).empty());
        CHECK(split_path_list("", W).empty());
    }
    SUBCASE("posix splits on ':' and keeps empty entries") {
        CHECK(split_path_list("/a:/b", P) == List{"/a", "/b"});
        CHECK(split_path_list(":/a::/b:", P) == List{"", "/a", "", "/b", ""});
        CHECK(split_path_list(":", P) == List{"", ""});
        CHECK(split_path_list("C:\\x;y", P) == List{"C", "\\x;y"});
    }
    SUBCASE("windows splits on ';' and keeps empty entries") {
        CHECK(split_path_list("C:\\a;C:\\b", W) == List{"C:\\a", "C:\\b"});
        CHECK(split_path_list(";C:\\a;;C:\\b;", W) == List{"", "C:\\a", "", "C:\\b", ""});
    }
    SUBCASE("windows: a ';' inside quotes belongs to the entry, quotes kept") {
        CHECK(split_path_list("\"C:\\a;b\";C:\\c", W) == List{"\"C:\\a;b\"", "C:\\c"});
        CHECK(split_path_list("C:\\x;\"C:\\Program Files\\y;z\\bin\";D:\\", W) ==
              List{"C:\\x", "\"C:\\Program Files\\y;z\\bin\"", "D:\\"});
        // An unbalanced quote runs to the end, as cmd reads it.
        CHECK(split_path_list("C:\\a;\"C:\\b;C:\\c", W) == List{"C:\\a", "\"C:\\b;C:\\c"});
    }
}

TEST_CASE("join_path_list") {
    SUBCASE("round trip byte for byte") {
        for (const char* s : {"/a:/b", ":/a::/b:", ":", "::", "/usr/bin", "/a b:/c'd:/e\"f", "/日本語/bin:/x",
                              "/trailing/:/double//slash"}) {
            CAPTURE(s);
            CHECK(join_path_list(split_path_list(s, P), P) == s);
        }
        for (const char* s : {"C:\\a;C:\\b", ";C:\\a;;C:\\b;", "\"C:\\a;b\";C:\\c", "C:\\a;\"C:\\b;C:\\c", ";",
                              "C:\\;D:/x/;\"\";\"C:\\Program Files\\NVIDIA\"", "C:\\ü\\ß;C:\\中文"}) {
            CAPTURE(s);
            CHECK(join_path_list(split_path_list(s, W), W) == s);
        }
    }
    SUBCASE("separator per style") {
        CHECK(join_path_list({"a", "b", ""}, P) == "a:b:");
        CHECK(join_path_list({"a", "b", ""}, W) == "a;b;");
        CHECK(join_path_list({}, W).empty());
        CHECK(list_separator(P) == ':');
        CHECK(list_separator(W) == ';');
    }
}

TEST_CASE("same_path_entry") {
    SUBCASE("windows: case, slashes, trailing separators, quotes") {
        CHECK(same_path_entry("C:\\CUDA\\bin\\", "c:/cuda/bin", W));
        CHECK(same_path_entry("C:\\CUDA\\bin", "C:\\CUDA\\BIN\\\\", W));
        CHECK(same_path_entry("\"C:\\Program Files\\x\"", "c:\\program files\\x\\", W));
        CHECK_FALSE(same_path_entry("C:\\CUDA\\bin", "C:\\CUDA\\bin2", W));
        CHECK_FALSE(same_path_entry("C:\\CUDA\\bin", "D:\\CUDA\\bin", W));
    }
    SUBCASE("windows: drive roots stay whole") {
        CHECK(path_entry_key("C:\\", W) == "c:\\");
        CHECK(path_entry_key("C:/", W) == "c:\\");
        CHECK(path_entry_key("C:\\\\", W) == "c:\\");
        CHECK(same_path_entry("C:\\", "c:/", W));
        CHECK_FALSE(same_path_entry("C:\\", "C:", W));  // C: is the current folder of drive C
    }
    SUBCASE("posix: case-sensitive, only trailing '/' ignored") {
        CHECK(same_path_entry("/usr/bin/", "/usr/bin", P));
        CHECK(same_path_entry("/usr/bin//", "/usr/bin", P));
        CHECK_FALSE(same_path_entry("/usr/Bin", "/usr/bin", P));
        CHECK_FALSE(same_path_entry("/usr\\bin", "/usr/bin", P));
        CHECK(path_entry_key("/", P) == "/");
        CHECK(path_entry_key("//", P) == "/");
    }
}

TEST_CASE("path_entry_under") {
    SUBCASE("posix") {
        CHECK(path_entry_under("/opt/x/bin", "/opt/x", P));
        CHECK(path_entry_under("/opt/x", "/opt/x/", P));
        CHECK_FALSE(path_entry_under("/opt/xy/bin", "/opt/x", P));
        CHECK_FALSE(path_entry_under("/opt", "/opt/x", P));
        CHECK_FALSE(path_entry_under("", "/opt/x", P));
        CHECK_FALSE(path_entry_under("/opt/x", "", P));
    }
    SUBCASE("windows") {
        CHECK(path_entry_under("c:/tools/cuda/BIN", "C:\\Tools\\CUDA", W));
        CHECK(path_entry_under("\"C:\\Tools\\CUDA\\bin\"", "C:\\Tools\\CUDA\\", W));
        CHECK_FALSE(path_entry_under("C:\\Tools\\CUDA2\\bin", "C:\\Tools\\CUDA", W));
        CHECK(path_entry_under("D:\\x", "D:\\", W));
        CHECK_FALSE(path_entry_under("C:\\x", "D:\\", W));
    }
}

TEST_CASE("rewrite_path_list") {
    auto owned_posix = [](const std::string& e) { return is_cuda_entry(e, {"/store"}, P); };
    auto owned_win = [](const std::string& e) { return is_cuda_entry(e, {"C:\\store"}, W); };

    SUBCASE("removes owned entries, prepends, keeps the others' order") {
        auto out = rewrite_path_list("/usr/bin:/usr/local/cuda-11.8/bin:/home/u/bin:/store/12.4/bin:/bin",
                                     {"/store/12.6/bin"}, owned_posix, P);
        CHECK(out == "/store/12.6/bin:/usr/bin:/home/u/bin:/bin");
    }
    SUBCASE("never duplicates a prepended dir") {
        auto owned_none = [](const std::string&) { return false; };
        CHECK(rewrite_path_list("/a:/x/bin:/b:/x/bin/", {"/x/bin", "/x/bin/"}, owned_none, P) == "/x/bin:/a:/b");
        CHECK(rewrite_path_list("C:\\a;c:/X/BIN;C:\\b", {"C:\\x\\bin"}, owned_none, W) == "C:\\x\\bin;C:\\a;C:\\b");
    }
    SUBCASE("keeps duplicates of other entries and their bytes; never an empty entry (issue 29.2)") {
        auto owned_none = [](const std::string&) { return false; };
        CHECK(rewrite_path_list("/a::/a:/b/", {"/p"}, owned_none, P) == "/p:/a:/a:/b/");
        CHECK(rewrite_path_list("C:\\a;;\"C:\\x;y\";C:\\a", {"C:\\p"}, owned_none, W) ==
              "C:\\p;C:\\a;\"C:\\x;y\";C:\\a");
        // A trailing or leading separator is an empty entry too (the current folder).
        CHECK(rewrite_path_list("/a:", {"/p"}, owned_none, P) == "/p:/a");
        CHECK(rewrite_path_list(":/a", {"/p"}, owned_none, P) == "/p:/a");
        CHECK(rewrite_path_list(":", {"/p"}, owned_none, P) == "/p");
        CHECK(rewrite_path_list("/a", {"", "/p"}, owned_none, P) == "/p:/a");
    }
    SUBCASE("edit_path_list says what it put first and what it took out") {
        auto e = edit_path_list("/usr/bin::/store/12.4/bin:/store/12.6/bin", {"/store/12.6/bin", "/store/12.6/bin/"},
                                owned_posix, P);
        CHECK(e.prepended == std::vector<std::string>{"/store/12.6/bin"});
        CHECK(e.removed == std::vector<std::string>{"", "/store/12.4/bin", "/store/12.6/bin"});
        CHECK(e.value == "/store/12.6/bin:/usr/bin");
    }
    SUBCASE("empty or unset current list") {
        CHECK(rewrite_path_list("", {"/p", "/q"}, owned_posix, P) == "/p:/q");
        CHECK(rewrite_path_list("", {}, owned_posix, P).empty());
        CHECK(rewrite_path_list("/usr/local/cuda/bin", {}, owned_posix, P).empty());
    }
    SUBCASE("windows: owned entries in any spelling go") {
        std::string cur =
            "C:\\Windows\\System32;\"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin\";"
            "c:/program files/nvidia gpu computing toolkit/cuda/v11.8/libnvvp;C:\\STORE\\cudnn\\9.1.0_cuda12\\bin\\;"
            "C:\\Users\\me\\bin";
        CHECK(rewrite_path_list(cur, {"C:\\store\\toolkits\\12.6.3\\bin"}, owned_win, W) ==
              "C:\\store\\toolkits\\12.6.3\\bin;C:\\Windows\\System32;C:\\Users\\me\\bin");
    }
}

TEST_CASE("is_cuda_entry") {
    SUBCASE("posix usual places") {
        for (const char* e : {"/usr/local/cuda/bin", "/usr/local/cuda", "/usr/local/cuda-12.6/bin",
                              "/usr/local/cuda-11.8/lib64", "/opt/cuda/bin", "/opt/cuda-12/bin/", "/usr/local/cuda/",
                              "/usr/local/cuda12.6/bin", "/opt/cuda_13.0/bin", "/usr/local/cuda-13"}) {
            CAPTURE(e);
            CHECK(is_cuda_entry(e, {}, P));
        }
        for (const char* e : {"/usr/bin", "/usr/local/bin", "/opt/bin", "/bin", "", "/home/u/cuda/bin",
                              "/usr/lib/x86_64-linux-gnu", "/usr/local/lib/cuda", "/opt/cudaenv/bin",
                              "/usr/local/cudatools/bin", "/opt/cuda-", "/opt/cuda-tools/bin"}) {
            CAPTURE(e);
            CHECK_FALSE(is_cuda_entry(e, {}, P));
        }
    }
    SUBCASE("windows usual places") {
        for (const char* e :
             {"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin",
              "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v13.0\\bin\\x64",
              "\"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.6\\libnvvp\"",
              "c:/program files/nvidia gpu computing toolkit/cuda/v12.6/bin/",
              "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.6", "C:\\Program Files\\NVIDIA\\CUDNN\\v9.19\\bin\\12.9\\x64",
              "D:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.6"}) {
            CAPTURE(e);
            CHECK(is_cuda_entry(e, {}, W));
        }
        for (const char* e : {"C:\\Windows\\System32", "C:\\Windows", "C:\\Program Files\\NVIDIA Corporation\\NVIDIA NvDLISR",
                              "C:\\Program Files (x86)\\NVIDIA Corporation\\PhysX\\Common", "", "C:\\",
                              "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python312\\Scripts"}) {
            CAPTURE(e);
            CHECK_FALSE(is_cuda_entry(e, {}, W));
        }
    }
    SUBCASE("below a known root") {
        CHECK(is_cuda_entry("/home/u/.local/share/cudaenv/toolkits/12.6.3/bin", {"/home/u/.local/share/cudaenv/toolkits"}, P));
        CHECK(is_cuda_entry("/data/cudnn-8.9.7/lib", {"/data/cudnn-8.9.7"}, P));
        CHECK_FALSE(is_cuda_entry("/data/cudnn-8.9.7x/lib", {"/data/cudnn-8.9.7"}, P));
        CHECK(is_cuda_entry("D:/SDKs/Cudnn/Bin", {"d:\\sdks\\cudnn\\"}, W));
        CHECK_FALSE(is_cuda_entry("D:\\SDKs\\Other", {"d:\\sdks\\cudnn"}, W));
    }
}
