#include "targets.hpp"

#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <stdexcept>
#include <string>
#include <toml++/toml.h>

#include "core/checks.hpp"
#include "core/config.hpp"
#include "core/lockfile.hpp"
#include "core/resolve.hpp"
#include "core/spec.hpp"
#include "core/toml_file.hpp"
#include "gpu/fatbin.hpp"
#include "util/binary_file.hpp"
#include "util/error.hpp"
#include "util/toml_limits.hpp"

namespace cudaenv::fuzz {

namespace {

std::string text_of(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

// A property that must hold: a finding when it does not.
void require(bool ok, const char* what) {
    if (!ok) throw std::logic_error(what);
}

// Any TOML read from the store (setup.toml too): the bounds, then toml++.
void toml_any(const uint8_t* data, size_t size) {
    auto text = text_of(data, size);
    if (check_toml_limits(text)) return;
    try {
        auto t = toml::parse(text, std::string_view("fuzz.toml"));
        (void)t.size();
    } catch (const toml::parse_error&) {
    }
}

void config(const uint8_t* data, size_t size) {
    Config c;
    try {
        c = Config::parse(text_of(data, size), "config.toml");
    } catch (const Error&) {
        return;
    }
    // What cudaenv writes it reads back as the same config.
    auto written = c.to_toml();
    Config again;
    try {
        again = Config::parse(written, "config.toml");
    } catch (const Error& e) {
        throw std::logic_error(std::string("config.toml written by cudaenv does not read back: ") + e.what());
    }
    require(again.to_toml() == written, "config.toml does not round-trip");
}

void checks(const uint8_t* data, size_t size) {
    Checks c;
    try {
        c = Checks::parse(text_of(data, size), "checks.toml");
    } catch (const Error&) {
        return;
    }
    auto written = c.to_toml();
    Checks again;
    try {
        again = Checks::parse(written, "checks.toml");
    } catch (const Error& e) {
        throw std::logic_error(std::string("checks.toml written by cudaenv does not read back: ") + e.what());
    }
    require(again.to_toml() == written, "checks.toml does not round-trip");
}

void lock(const uint8_t* data, size_t size) {
    LockFile l;
    try {
        l = LockFile::parse(text_of(data, size), "cudaenv.lock");
    } catch (const Error&) {
        return;
    }
    auto written = l.to_toml();
    LockFile again;
    try {
        again = LockFile::parse(written, "cudaenv.lock");
    } catch (const Error& e) {
        throw std::logic_error(std::string("cudaenv.lock written by cudaenv does not read back: ") + e.what());
    }
    require(again.to_toml() == written, "cudaenv.lock does not round-trip");
}

void spec(const uint8_t* data, size_t size) {
    auto s = Spec::parse(text_of(data, size));
    if (s) (void)s->str();
}

void version_file(const uint8_t* data, size_t size) {
    auto text = text_of(data, size);
    try {
        (void)parse_dot_cudaenv(text, ".cudaenv");
    } catch (const Error&) {
    }
    try {
        (void)parse_tool_versions(text, ".tool-versions");
    } catch (const Error&) {
    }
}

// A file cudaenv inspects (gpu/fatbin): as an ELF or PE file, and as the
// bytes of one fatbin section. Reads are bounded by the file; every problem is
// one line, and no file claims more entries than the limit.
void fatbin(const uint8_t* data, size_t size) {
    static const auto file = std::filesystem::temp_directory_path() / ("cudaenv-fuzz-fatbin-" + std::to_string(::getpid()));
    std::ofstream(file, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    auto check = [](const gpu::Code& c, const std::string& problem) {
        require(problem.find('\n') == std::string::npos, "a fatbin finding of more than one line");
        long long n = 0;
        for (const auto& [a, k] : c.sass) n += k;
        for (const auto& [a, k] : c.ptx) n += k;
        require(n <= gpu::max_entries, "more fatbin entries than the limit");
    };
    auto fc = gpu::read_file(file);
    check(fc.code, fc.problem);
    BinaryFile f(file);
    gpu::Code code;
    check(code, gpu::read_fatbins(f, 0, f.size(), code));
}

}  // namespace

const Target kTargets[] = {
    {"toml", toml_any},
    {"config", config},
    {"checks", checks},
    {"lock", lock},
    {"spec", spec},
    {"version_file", version_file},
    {"fatbin", fatbin},
    {nullptr, nullptr},
};

const Target* find_target(std::string_view name) {
    for (const Target* t = kTargets; t->name; ++t)
        if (name == t->name) return t;
    return nullptr;
}

}  // namespace cudaenv::fuzz
