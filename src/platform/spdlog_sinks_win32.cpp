// spdlog's colour sink for the Windows console (its API), compiled once with the rest of spdlog
// (util/spdlog_impl.cpp says why): the sink spdlog's own headers choose for
// this OS (spdlog/sinks/stdout_color_sinks.h).
#if !defined(SPDLOG_COMPILED_LIB)
#error "built with SPDLOG_COMPILED_LIB (cmake/Dependencies.cmake)"
#endif

#include <spdlog/details/console_globals.h>
#include <spdlog/sinks/wincolor_sink-inl.h>

#include "util/spdlog_instances.hpp"

CUDAENV_SPDLOG_CONSOLE_SINK(wincolor_sink);
CUDAENV_SPDLOG_CONSOLE_SINK(wincolor_stdout_sink);
CUDAENV_SPDLOG_CONSOLE_SINK(wincolor_stderr_sink);
