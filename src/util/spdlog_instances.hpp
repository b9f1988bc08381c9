#pragma once
// One of spdlog's console sink templates instantiated for both of its mutex
// types, in the files that compile spdlog once (util/spdlog_impl.cpp says why;
// platform/spdlog_sinks_*.cpp: the colour sink of each OS).
#define CUDAENV_SPDLOG_CONSOLE_SINK(sink)                                           \
    template class SPDLOG_API spdlog::sinks::sink<spdlog::details::console_mutex>; \
    template class SPDLOG_API spdlog::sinks::sink<spdlog::details::console_nullmutex>
