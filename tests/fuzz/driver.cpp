// The in-tree fuzz driver: seeded random mutation of a corpus (no coverage
// feedback: that is what the libFuzzer build adds, docs/fuzzing.md). Built
// with the project's own compiler, so CTest runs it on every build, the
// sanitizer build (asan preset) included.
//
//   cudaenv_fuzz --target NAME [--runs N] [--seconds S] [--seed X] [--max-len B]
//                [--artifacts DIR] CORPUS_DIR_OR_FILE...
//
// Every corpus file is run as it is first (regressions of past findings
// live there), then mutants of them. An input that crashes is written to
// <artifacts>/crash-<target> before the process dies, to replay with
// `cudaenv_fuzz --target NAME FILE`.
#include <signal.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "targets.hpp"

namespace fs = std::filesystem;

namespace {

// The input being run, for the crash handler (async-signal-safe writes only).
const uint8_t* g_data = nullptr;
size_t g_size = 0;
char g_crash_path[4096] = "crash";

void dump_input() {
    int fd = ::open(g_crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    size_t done = 0;
    while (g_data && done < g_size) {
        auto n = ::write(fd, g_data + done, g_size - done);
        if (n <= 0) break;
        done += static_cast<size_t>(n);
    }
    ::close(fd);
    const char msg[] = "\ncudaenv_fuzz: crashing input written to ";
    (void)!::write(2, msg, sizeof msg - 1);
    (void)!::write(2, g_crash_path, std::strlen(g_crash_path));
    (void)!::write(2, "\n", 1);
}

void on_signal(int sig) {
    dump_input();
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void on_terminate() {
    if (auto e = std::current_exception()) {
        try {
            std::rethrow_exception(e);
        } catch (const std::exception& x) {
            std::cerr << "cudaenv_fuzz: finding: " << x.what() << "\n";
        } catch (...) {
            std::cerr << "cudaenv_fuzz: finding: an unknown exception\n";
        }
    }
    dump_input();
    std::_Exit(1);
}

}  // namespace

// Sanitizers report and exit without a signal: let them dump the input too.
extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

namespace {

void install_handlers() {
    // Stack overflows are among what we look for: handle them on a stack of their own.
    static std::vector<char> alt(1 << 16);
    stack_t ss{};
    ss.ss_sp = alt.data();
    ss.ss_size = alt.size();
    ::sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_ONSTACK;
    for (int sig : {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL}) ::sigaction(sig, &sa, nullptr);
    std::set_terminate(on_terminate);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(dump_input);
}

// Tokens the parsers care about: splicing them in reaches far more of each
// parser than random bytes do.
const std::vector<std::string> kTokens = {
    "[", "[[", "]", "]]", "{", "}", "=", ".", ",", "\"", "'", "\"\"\"", "'''", "\\", "\\u", "\n", "\r\n", "\r",
    "#", " ", "\t", "+", "-", "_", "a", "1", "1.5", "12.4", "12.4.1+9.1", "+none", "system", "cuda", "true",
    "1979-05-27T07:32:00Z", "inf", "nan", "0x1F", "1e99", "\xEF\xBB\xBF", "\xFF\xFE", "\xFE\xFF", std::string(1, '\0'),
    "\xC3\xA9", "\xF0\x9F\x98\x80", "\xC0\x80", "[[toolkit]]\n", "[[cudnn]]\n", "[pins]\n", "[[pair]]\n",
    "path = ", "version = ", "global = ", "status = \"pass\"", "a.", "[a.", "x={", "[[[", "[=",
    // JSON: CMakeUserPresets.json, kernelspecs, reports
    ":", "null", "false", "12345678901234567890123", "1e-7", "-0", "\"name\": ", "\"version\": 3",
    "\"configurePresets\": []", "\"buildPresets\": [", "\"vendor\": {\"cudaenv\": {}}", "\"name\": \"cudaenv-12.4.131\"",
    "\\\"", "\\u0000", "\\ud800",
};

std::string mutate(std::string s, std::mt19937_64& rng, const std::vector<std::string>& corpus, size_t max_len) {
    auto pick = [&](size_t n) { return n ? static_cast<size_t>(rng() % n) : 0; };
    int rounds = 1 + static_cast<int>(rng() % 6);
    for (int r = 0; r < rounds; ++r) {
        switch (rng() % 9) {
            case 0:  // flip a bit
                if (!s.empty()) s[pick(s.size())] ^= static_cast<char>(1u << (rng() % 8));
                break;
            case 1:  // a random byte
                s.insert(s.begin() + static_cast<std::ptrdiff_t>(pick(s.size() + 1)), static_cast<char>(rng()));
                break;
            case 2:
            case 3:  // a token
                s.insert(pick(s.size() + 1), kTokens[pick(kTokens.size())]);
                break;
            case 4:  // delete a range
                if (!s.empty()) {
                    auto at = pick(s.size());
                    s.erase(at, 1 + pick(std::min<size_t>(s.size() - at, 64)));
                }
                break;
            case 5: {  // repeat a short piece many times (depth, long keys, long lines)
                if (s.empty()) break;
                auto at = pick(s.size());
                auto len = 1 + pick(std::min<size_t>(s.size() - at, 8));
                auto piece = s.substr(at, len);
                size_t times = 1 + pick(rng() % 4 == 0 ? 50000 : 64);
                std::string rep;
                for (size_t i = 0; i < times && rep.size() < max_len; ++i) rep += piece;
                s.insert(at, rep);
                break;
            }
            case 6:  // splice with another corpus entry
                if (!corpus.empty()) {
                    const auto& other = corpus[pick(corpus.size())];
                    auto from = pick(other.size() + 1);
                    s.insert(pick(s.size() + 1), other.substr(from, pick(other.size() - from + 1)));
                }
                break;
            case 7:  // truncate
                s.resize(pick(s.size() + 1));
                break;
            case 8:  // overwrite a byte with a token's first byte
                if (!s.empty()) s[pick(s.size())] = kTokens[pick(kTokens.size())][0];
                break;
        }
        if (s.size() > max_len) s.resize(max_len);
    }
    return s;
}

void run_one(const cudaenv::fuzz::Target& t, const std::string& input) {
    g_data = reinterpret_cast<const uint8_t*>(input.data());
    g_size = input.size();
    t.run(g_data, g_size);
    g_data = nullptr;
}

int usage() {
    std::cerr << "usage: cudaenv_fuzz --target NAME [--runs N] [--seconds S] [--seed X] [--max-len B] "
                 "[--artifacts DIR] CORPUS...\ntargets:";
    for (const auto* t = cudaenv::fuzz::kTargets; t->name; ++t) std::cerr << " " << t->name;
    std::cerr << "\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string target_name, artifacts = ".";
    unsigned long long runs = 100000, seed = 1;
    double seconds = 60;
    size_t max_len = 1 << 20;
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) std::exit(usage());
            return argv[++i];
        };
        if (a == "--target") target_name = value();
        else if (a == "--runs") runs = std::stoull(value());
        else if (a == "--seconds") seconds = std::stod(value());
        else if (a == "--seed") seed = std::stoull(value());
        else if (a == "--max-len") max_len = std::stoull(value());
        else if (a == "--artifacts") artifacts = value();
        else if (a.starts_with("--")) return usage();
        else inputs.emplace_back(a);
    }
    const auto* target = cudaenv::fuzz::find_target(target_name);
    if (!target) return usage();
    std::snprintf(g_crash_path, sizeof g_crash_path, "%s/crash-%s", artifacts.c_str(), target->name);
    install_handlers();

    std::vector<std::string> corpus;
    auto load = [&](const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    };
    for (const auto& p : inputs) {
        if (fs::is_directory(p)) {
            std::vector<fs::path> files;
            for (const auto& e : fs::directory_iterator(p))
                if (e.is_regular_file()) files.push_back(e.path());
            std::sort(files.begin(), files.end());  // the same order on every run
            for (const auto& f : files) load(f);
        } else {
            load(p);
        }
    }
    if (corpus.empty()) corpus.emplace_back();

    // The corpus as it is: past findings stay fixed.
    for (const auto& c : corpus) run_one(*target, c);
    // Then mutants, until the runs or the time are used up.
    std::mt19937_64 rng(seed);
    auto start = std::chrono::steady_clock::now();
    unsigned long long done = 0;
    for (; done < runs; ++done) {
        if ((done & 63) == 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds)
            break;
        run_one(*target, mutate(corpus[rng() % corpus.size()], rng, corpus, max_len));
    }
    std::cout << "cudaenv_fuzz: " << target->name << ": " << corpus.size() << " corpus inputs and " << done
              << " mutants, no finding ("
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s)\n";
    return 0;
}
