#include "util/binary_file.hpp"

#include <algorithm>

namespace cudaenv {

BinaryFile::BinaryFile(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) return;  // never open a FIFO or a device
    in_.open(file, std::ios::binary);
    if (!in_) return;
    in_.seekg(0, std::ios::end);
    auto end = in_.tellg();
    if (end < 0) return;
    size_ = static_cast<uint64_t>(end);
    ok_ = true;
}

bool BinaryFile::read(uint64_t offset, void* out, size_t n) {
    if (!ok_ || offset > size_ || n > size_ - offset) return false;
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(offset));
    return static_cast<bool>(in_.read(static_cast<char*>(out), static_cast<std::streamsize>(n)));
}

std::string BinaryFile::string_at(uint64_t offset, size_t max) {
    std::string s;
    char buf[64];
    while (s.size() < max) {
        size_t n = std::min<uint64_t>(sizeof buf, size_ > offset ? size_ - offset : 0);
        if (n == 0 || !read(offset, buf, n)) return s;
        for (size_t i = 0; i < n; ++i) {
            if (buf[i] == '\0' || s.size() >= max) return s;
            s += buf[i];
        }
        offset += n;
    }
    return s;
}

}  // namespace cudaenv
