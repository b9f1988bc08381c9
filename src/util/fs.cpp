#include "util/fs.hpp"

#include <fstream>
#include <random>

#include "util/error.hpp"

namespace cudaenv::fsx {

fs::path from_utf8(std::string_view s) {
    return fs::path(std::u8string(reinterpret_cast<const char8_t*>(s.data()), s.size()));
}

std::string to_utf8(const fs::path& p) {
    auto u8 = p.u8string();
    return std::string(reinterpret_cast<const char*>(u8.data()), u8.size());
}

std::optional<std::string> read_file(const fs::path& p, size_t max_bytes) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::string out;
    char buf[8192];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        out.append(buf, static_cast<size_t>(in.gcount()));
        if (out.size() > max_bytes) return std::nullopt;
    }
    if (in.bad()) return std::nullopt;
    return out;
}

void write_file_atomic(const fs::path& p, std::string_view content) {
    std::error_code ec;
    auto dir = p.parent_path();
    if (!dir.empty()) fs::create_directories(dir, ec);
    if (ec)
        throw Error("cannot create folder '" + to_utf8(dir) + "': " + ec.message());
    std::random_device rd;
    auto tmp = p;
    tmp += ".tmp" + std::to_string(rd() % 1000000);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw Error("cannot write '" + to_utf8(p) + "': permission denied or read-only folder",
                        "check that you own '" + to_utf8(dir) + "'");
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        out.flush();
        if (!out) {
            out.close();
            fs::remove(tmp, ec);
            throw Error("cannot write '" + to_utf8(p) + "' (disk full?)");
        }
    }
    fs::rename(tmp, p, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw Error("cannot replace '" + to_utf8(p) + "': " + ec.message());
    }
}

bool is_dir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

bool is_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

bool exists(const fs::path& p) {
    std::error_code ec;
    return fs::exists(p, ec);
}

fs::path absolute_normal(const fs::path& p) {
    std::error_code ec;
    auto abs = fs::absolute(p, ec);
    if (ec) abs = p;
    auto n = abs.lexically_normal();
    // "a/b/" normalises to "a/b/" with an empty filename; drop it.
    if (!n.has_filename() && n.has_relative_path()) n = n.parent_path();
    return n;
}

}  // namespace cudaenv::fsx
