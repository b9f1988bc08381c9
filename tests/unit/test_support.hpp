#pragma once
// Helpers shared by the unit tests: temporary folders, small files, versions
// and specs written as text.
#include <atomic>
#include <chrono>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

#include "core/spec.hpp"
#include "core/version.hpp"

namespace testsupport {

namespace fs = std::filesystem;

// A fresh folder below the system temp folder, removed with everything in it
// when the object goes away.
class TempDir {
public:
    explicit TempDir(std::string_view tag = "t") {
        static std::atomic<unsigned> counter{0};
        auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        path_ = fs::temp_directory_path() /
                ("cudaenv-unit-" + std::string(tag) + "-" + std::to_string(stamp) + "-" + std::to_string(counter++));
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const fs::path& path() const { return path_; }
    fs::path operator/(const fs::path& rel) const { return path_ / rel; }

private:
    fs::path path_;
};

// Writes `content` to `p`, creating its folders.
inline void write(const fs::path& p, std::string_view content = {}) {
    fs::create_directories(p.parent_path());
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
}

// A symbolic link, where this system can make one: false under Wine (and on
// Windows without the privilege), where a test of links has nothing to test.
inline bool symlink(const fs::path& target, const fs::path& link) {
    std::error_code ec;
    fs::create_symlink(target, link, ec);
    return !ec;
}

// A version or spec written in a test, which must parse (each call is an
// assertion, as it was in version_test.cpp and spec_test.cpp).
inline cudaenv::Version V(const char* s) {
    auto v = cudaenv::Version::parse(s);
    REQUIRE_MESSAGE(v.has_value(), s);
    return *v;
}
inline cudaenv::Spec S(const char* s) {
    auto v = cudaenv::Spec::parse(s);
    REQUIRE_MESSAGE(v.has_value(), s);
    return *v;
}

inline bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

inline std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace testsupport

// Lets doctest print optional strings in failed checks.
namespace doctest {
template <>
struct StringMaker<std::optional<std::string>> {
    static String convert(const std::optional<std::string>& v) {
        if (!v) return "nullopt";
        return ("\"" + *v + "\"").c_str();
    }
};
}  // namespace doctest
