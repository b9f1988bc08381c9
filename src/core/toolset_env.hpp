#pragma once
// What entering a Visual Studio toolset does to a session (core/msvc.hpp
// works it out; core/activation.hpp applies it with a pair): a value of its
// own, so the activation does not depend on how toolsets are found.
#include <string>
#include <utility>
#include <vector>

namespace cudaenv {

// What entering a toolset does: each variable vcvarsall.bat set, and for a
// search list (PATH, INCLUDE, LIB, LIBPATH, ...) the entries it put before
// and after what was there. Names are as vcvarsall wrote them, PATH as "PATH".
struct ToolsetEnv {
    std::string version;  // the toolset's folder name
    struct List {
        std::string name;
        std::vector<std::string> front, back;
        bool operator==(const List&) const = default;
    };
    std::vector<std::pair<std::string, std::string>> set;
    std::vector<List> lists;
    bool operator==(const ToolsetEnv&) const = default;
};

}  // namespace cudaenv
