#include "util/pe.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>

#include "util/binary_file.hpp"

namespace cudaenv::pe {

namespace {

template <class T>
bool read_at(std::ifstream& in, uint64_t off, T& out) {
    in.clear();
    in.seekg(static_cast<std::streamoff>(off));
    return static_cast<bool>(in.read(reinterpret_cast<char*>(&out), sizeof(T)));
}

// PE/COFF layouts (little-endian, as on every Windows target).
struct CoffHeader { uint16_t machine, sections; uint32_t time, symtab, symbols; uint16_t opt_size, flags; };
struct RawSection { char name[8]; uint32_t vsize, vaddr, raw_size, raw_ptr, reloc_ptr, lines_ptr;
                 uint16_t relocs, lines; uint32_t flags; };
struct ImportDescriptor { uint32_t lookup, time, forwarder, name, thunks; };
constexpr uint16_t pe32_magic = 0x10b, pe32plus_magic = 0x20b;
constexpr uint32_t import_directory = 1;

}  // namespace

std::vector<std::string> imported_dlls(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    char mz[2] = {};
    uint32_t pe_off = 0;
    if (!in || !read_at(in, 0, mz) || std::memcmp(mz, "MZ", 2) != 0 || !read_at(in, 0x3c, pe_off)) return {};
    char sig[4] = {};
    CoffHeader coff{};
    if (!read_at(in, pe_off, sig) || std::memcmp(sig, "PE\0\0", 4) != 0 || !read_at(in, pe_off + 4, coff)) return {};
    uint64_t opt = pe_off + 4 + sizeof(CoffHeader);
    uint16_t magic = 0;
    if (!read_at(in, opt, magic) || (magic != pe32_magic && magic != pe32plus_magic)) return {};
    // NumberOfRvaAndSizes, then the data directories (RVA, size) that follow it.
    uint64_t count_off = opt + (magic == pe32plus_magic ? 108 : 92);
    uint32_t dir_count = 0;
    if (!read_at(in, count_off, dir_count) || dir_count <= import_directory) return {};
    uint32_t import_rva = 0;
    if (!read_at(in, count_off + 4 + 8 * import_directory, import_rva) || import_rva == 0) return {};
    if (coff.sections > 96) return {};
    std::vector<RawSection> sections(coff.sections);
    for (uint16_t i = 0; i < coff.sections; ++i)
        if (!read_at(in, opt + coff.opt_size + uint64_t(i) * sizeof(RawSection), sections[i])) return {};
    auto to_offset = [&](uint32_t rva, uint64_t& off) {
        for (const auto& s : sections) {
            uint32_t size = s.vsize > s.raw_size ? s.vsize : s.raw_size;
            if (rva >= s.vaddr && rva < s.vaddr + size && rva - s.vaddr < s.raw_size) {
                off = uint64_t(s.raw_ptr) + (rva - s.vaddr);
                return true;
            }
        }
        return false;
    };
    uint64_t desc_off = 0;
    if (!to_offset(import_rva, desc_off)) return {};
    std::vector<std::string> out;
    for (int i = 0; i < 4096; ++i) {
        ImportDescriptor d{};
        if (!read_at(in, desc_off + uint64_t(i) * sizeof(ImportDescriptor), d)) break;
        if (d.name == 0 && d.thunks == 0 && d.lookup == 0) break;
        uint64_t name_off = 0;
        if (!to_offset(d.name, name_off)) continue;
        in.clear();
        in.seekg(static_cast<std::streamoff>(name_off));
        std::string name;
        char c;
        while (name.size() < 256 && in.get(c) && c != '\0') name += c;
        if (!name.empty()) out.push_back(name);
    }
    return out;
}

SectionTable sections(const std::filesystem::path& file) {
    SectionTable out;
    BinaryFile in(file);
    char mz[2] = {};
    uint32_t pe_off = 0;
    if (!in.ok() || !in.read_at(0, mz) || std::memcmp(mz, "MZ", 2) != 0 || !in.read_at(0x3c, pe_off)) return out;
    char sig[4] = {};
    CoffHeader coff{};
    if (!in.read_at(pe_off, sig) || std::memcmp(sig, "PE\0\0", 4) != 0 || !in.read_at(pe_off + 4, coff)) return out;
    out.recognised = true;
    if (coff.sections > 96) {  // the PE format's own limit
        out.problem = "the PE header claims " + std::to_string(coff.sections) + " sections";
        return out;
    }
    const uint64_t table = uint64_t(pe_off) + 4 + sizeof(CoffHeader) + coff.opt_size;
    for (uint16_t i = 0; i < coff.sections; ++i) {
        FileSection s{};
        RawSection raw{};
        if (!in.read_at(table + uint64_t(i) * sizeof(RawSection), raw)) {
            out.problem = "the PE section table lies past the end of the file";
            return out;
        }
        if (raw.raw_size == 0) continue;  // uninitialised data
        if (raw.raw_ptr > in.size() || raw.raw_size > in.size() - raw.raw_ptr) {
            out.problem = "a PE section points past the end of the file";
            return out;
        }
        s.name.assign(raw.name, strnlen(raw.name, sizeof raw.name));
        s.offset = raw.raw_ptr;
        s.size = raw.raw_size;
        out.list.push_back(s);
    }
    return out;
}

}  // namespace cudaenv::pe
