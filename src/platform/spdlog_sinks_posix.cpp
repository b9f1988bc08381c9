// spdlog's colour sink for a POSIX terminal (ANSI escapes), compiled once with the rest of spdlog
// (util/spdlog_impl.cpp says why): the sink spdlog's own headers choose for
// this OS (spdlog/sinks/stdout_color_sinks.h).
#if !defined(SPDLOG_COMPILED_LIB)
#error "built with SPDLOG_COMPILED_LIB (cmake/Dependencies.cmake)"
#endif

#include <spdlog/details/console_globals.h>
#include <spdlog/sinks/ansicolor_sink-inl.h>

#include "util/spdlog_instances.hpp"

CUDAENV_SPDLOG_CONSOLE_SINK(ansicolor_sink);
CUDAENV_SPDLOG_CONSOLE_SINK(ansicolor_stdout_sink);
CUDAENV_SPDLOG_CONSOLE_SINK(ansicolor_stderr_sink);
