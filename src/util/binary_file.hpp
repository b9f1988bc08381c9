#pragma once
// Bounded reads at offsets of a binary file (ELF, PE, fatbin headers): every
// read checks it lies inside the file, so a header that points past the end
// is an answer ("cannot read"), never a read of whatever follows.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace cudaenv {

class BinaryFile {
public:
    explicit BinaryFile(const std::filesystem::path& file);
    bool ok() const { return ok_; }
    uint64_t size() const { return size_; }
    // `n` bytes at `offset` into `out`; false when they are not all inside the file.
    bool read(uint64_t offset, void* out, size_t n);
    template <class T>
    bool read_at(uint64_t offset, T& out) {
        return read(offset, &out, sizeof(T));
    }
    // A NUL-terminated string at `offset`, at most `max` bytes ("" when unreadable).
    std::string string_at(uint64_t offset, size_t max);

private:
    std::ifstream in_;
    uint64_t size_ = 0;
    bool ok_ = false;
};

}  // namespace cudaenv
