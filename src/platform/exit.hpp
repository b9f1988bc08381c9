#pragma once
// Process end, once the output is flushed (platform_posix.cpp / platform_win32.cpp).
namespace cudaenv::platform {

// On POSIX without static destructors: they only free memory (CLI11's
// validators, one set per file that includes CLI11) and cost every start.
[[noreturn]] void exit_process(int status);

}  // namespace cudaenv::platform
