// Test-only: fault injection shared by the fake CUDA runtime and fake cuDNN.
// FAKE*_CRASH=<function> segfaults in that function, FAKE*_HANG=<function>
// sleeps forever in it, FAKECUDNN_STATUS=<function>:<code> makes it return
// that status.
#pragma once
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace fake {

inline bool env_is(const char* var, const char* fn) {
    const char* v = std::getenv(var);
    return v && std::strcmp(v, fn) == 0;
}

inline int env_int(const char* var, int fallback) {
    const char* v = std::getenv(var);
    return v && *v ? std::atoi(v) : fallback;
}

inline void maybe_crash_or_hang(const char* prefix, const char* fn) {
    std::string crash = std::string(prefix) + "_CRASH", hang = std::string(prefix) + "_HANG";
    if (env_is(crash.c_str(), fn)) {
        volatile int* p = nullptr;
        *p = 1;  // a real segfault, as a broken driver would give
        std::raise(SIGSEGV);
    }
    if (env_is(hang.c_str(), fn))
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

// The status FAKECUDNN_STATUS asks `fn` to return, or 0.
inline int forced_status(const char* fn) {
    const char* v = std::getenv("FAKECUDNN_STATUS");
    if (!v) return 0;
    const char* colon = std::strchr(v, ':');
    if (!colon || std::strncmp(v, fn, static_cast<size_t>(colon - v)) != 0 || std::strlen(fn) != static_cast<size_t>(colon - v))
        return 0;
    return std::atoi(colon + 1);
}

}  // namespace fake
