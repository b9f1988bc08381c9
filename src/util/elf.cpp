#include "util/elf.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "util/binary_file.hpp"

namespace cudaenv::elf {

namespace {
template <class T>
bool read_at(std::ifstream& in, uint64_t off, T& out) {
    in.seekg(static_cast<std::streamoff>(off));
    return static_cast<bool>(in.read(reinterpret_cast<char*>(&out), sizeof(T)));
}
struct Ehdr { unsigned char ident[16]; uint16_t type, machine; uint32_t version; uint64_t entry, phoff, shoff;
              uint32_t flags; uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx; };
struct Phdr { uint32_t type, flags; uint64_t offset, vaddr, paddr, filesz, memsz, align; };
struct Dyn { int64_t tag; uint64_t val; };
struct Shdr { uint32_t name, type; uint64_t flags, addr, offset, size; uint32_t link, info; uint64_t align, entsize; };
constexpr uint32_t SHT_NOBITS = 8;
constexpr uint32_t max_sections = 65535;
constexpr uint32_t PT_LOAD = 1, PT_DYNAMIC = 2, PT_INTERP = 3;
constexpr int64_t DT_NULL = 0, DT_NEEDED = 1, DT_STRTAB = 5, DT_SONAME = 14, DT_RPATH = 15, DT_RUNPATH = 29;
}  // namespace

std::vector<std::string> needed_libraries(const std::filesystem::path& file) {
    auto d = dynamic_section(file);
    return d ? d->needed : std::vector<std::string>{};
}

std::optional<Dynamic> dynamic_section(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    Ehdr eh{};
    if (!in || !read_at(in, 0, eh)) return std::nullopt;
    if (std::memcmp(eh.ident, "\x7f" "ELF", 4) != 0 || eh.ident[4] != 2 || eh.ident[5] != 1) return {};
    if (eh.phentsize != sizeof(Phdr) || eh.phnum > 256) return {};
    std::vector<Phdr> ph(eh.phnum);
    for (uint16_t i = 0; i < eh.phnum; ++i)
        if (!read_at(in, eh.phoff + uint64_t(i) * sizeof(Phdr), ph[i])) return {};
    const Phdr* dyn = nullptr;
    for (const auto& p : ph)
        if (p.type == PT_DYNAMIC) dyn = &p;
    if (!dyn || dyn->filesz > (1u << 20)) return {};
    std::vector<uint64_t> needed;
    int64_t soname = -1, rpath = -1, runpath = -1;
    uint64_t strtab_vaddr = 0;
    for (uint64_t off = 0; off + sizeof(Dyn) <= dyn->filesz; off += sizeof(Dyn)) {
        Dyn d{};
        if (!read_at(in, dyn->offset + off, d) || d.tag == DT_NULL) break;
        if (d.tag == DT_NEEDED) needed.push_back(d.val);
        if (d.tag == DT_STRTAB) strtab_vaddr = d.val;
        if (d.tag == DT_SONAME) soname = static_cast<int64_t>(d.val);
        if (d.tag == DT_RPATH) rpath = static_cast<int64_t>(d.val);
        if (d.tag == DT_RUNPATH) runpath = static_cast<int64_t>(d.val);
    }
    // DT_STRTAB is a virtual address: map it back to a file offset.
    uint64_t strtab_off = 0;
    bool mapped = false;
    for (const auto& p : ph)
        if (p.type == PT_LOAD && strtab_vaddr >= p.vaddr && strtab_vaddr < p.vaddr + p.filesz) {
            strtab_off = strtab_vaddr - p.vaddr + p.offset;
            mapped = true;
        }
    if (!mapped) return {};
    auto string_at = [&](uint64_t n) {
        in.clear();
        in.seekg(static_cast<std::streamoff>(strtab_off + n));
        std::string name;
        char c;
        while (name.size() < 4096 && in.get(c) && c != '\0') name += c;
        return name;
    };
    Dynamic out;
    for (auto n : needed) {
        auto name = string_at(n);
        if (!name.empty() && name.size() <= 256) out.needed.push_back(name);
    }
    if (soname >= 0) out.soname = string_at(static_cast<uint64_t>(soname));
    if (rpath >= 0) out.rpath = string_at(static_cast<uint64_t>(rpath));
    if (runpath >= 0) out.runpath = string_at(static_cast<uint64_t>(runpath));
    for (const auto& p : ph)
        if (p.type == PT_INTERP && p.filesz > 1 && p.filesz <= 4096) {
            std::string interp(p.filesz, '\0');
            in.clear();
            in.seekg(static_cast<std::streamoff>(p.offset));
            if (in.read(interp.data(), static_cast<std::streamsize>(p.filesz))) out.interpreter = interp.substr(0, interp.find('\0'));
        }
    return out;
}

SectionTable sections(const std::filesystem::path& file) {
    SectionTable out;
    BinaryFile in(file);
    Ehdr eh{};
    if (!in.ok() || !in.read_at(0, eh)) return out;
    if (std::memcmp(eh.ident, "\x7f" "ELF", 4) != 0 || eh.ident[4] != 2 || eh.ident[5] != 1) return out;
    out.recognised = true;
    if (eh.shoff == 0) return out;  // no section table: nothing to find
    if (eh.shentsize != sizeof(Shdr)) {
        out.problem = "unexpected ELF section header size " + std::to_string(eh.shentsize);
        return out;
    }
    uint64_t count = eh.shnum;
    Shdr first{};
    if (!in.read_at(eh.shoff, first)) {
        out.problem = "the ELF section table lies past the end of the file";
        return out;
    }
    if (count == 0) count = first.size;  // more than 0xff00 sections: the count is in section 0
    if (count > max_sections) {
        out.problem = "the ELF header claims " + std::to_string(count) + " sections";
        return out;
    }
    std::vector<Shdr> sh(count);
    for (uint64_t i = 0; i < count; ++i)
        if (!in.read_at(eh.shoff + i * sizeof(Shdr), sh[i])) {
            out.problem = "the ELF section table lies past the end of the file";
            return out;
        }
    uint64_t strndx = eh.shstrndx == 0xffff ? first.link : eh.shstrndx;
    const Shdr* names = strndx < count ? &sh[strndx] : nullptr;
    for (const auto& s : sh) {
        if (s.type == SHT_NOBITS || s.size == 0) continue;
        if (s.offset > in.size() || s.size > in.size() - s.offset) {
            out.problem = "an ELF section points past the end of the file";
            return out;
        }
        std::string name;
        if (names && s.name < names->size) name = in.string_at(names->offset + s.name, std::min<uint64_t>(256, names->size - s.name));
        out.list.push_back({name, s.offset, s.size});
    }
    return out;
}

std::optional<bool> has_text_section(BinaryFile& in, uint64_t base, uint64_t size) {
    // Every offset below is checked against `size` before it is added to `base`.
    Ehdr eh{};
    if (size < sizeof eh || !in.read_at(base, eh)) return std::nullopt;
    if (std::memcmp(eh.ident, "\x7f" "ELF", 4) != 0 || eh.ident[4] != 2 || eh.ident[5] != 1) return std::nullopt;
    if (eh.shentsize != sizeof(Shdr) || eh.shstrndx >= eh.shnum || eh.shoff > size ||
        uint64_t(eh.shnum) * sizeof(Shdr) > size - eh.shoff)
        return std::nullopt;
    Shdr names{};
    if (!in.read_at(base + eh.shoff + uint64_t(eh.shstrndx) * sizeof(Shdr), names)) return std::nullopt;
    if (names.offset > size || names.size > size - names.offset || names.size > (1u << 20)) return std::nullopt;
    std::string table(names.size, '\0');
    if (!in.read(base + names.offset, table.data(), table.size())) return std::nullopt;
    return table.find(".text") != std::string::npos;
}

}  // namespace cudaenv::elf
