#pragma once
// Helpers shared by the unit tests: temporary folders and small files.
#include <atomic>
#include <chrono>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

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
