#pragma once
// Bounded reads at offsets of a binary file (ELF, PE, fatbin headers): every
// read checks it lies inside the file, so a header that points past the end
// is an answer ("cannot read"), never a read of whatever follows.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace cudaenv {

// An object file's sections with bytes in the file, as util/elf and util/pe
// read their tables (SHT_NOBITS sections are left out).
struct FileSection {
    std::string name;
    uint64_t offset = 0, size = 0;
};
struct SectionTable {
    bool recognised = false;  // an object of the reader's format at all
    std::string problem;      // why the table could not be read ("" when it was)
    std::vector<FileSection> list;
};

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
