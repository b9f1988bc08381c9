#pragma once
// The one function that writes "cudaenv: error: <message>" and "hint: <hint>"
// to stderr (app.cpp, the tool shim, setup --undo's per-change errors). Both
// go through str::visible(): a message quotes folder names, specs and
// arguments from outside, and none of them may reach the terminal as a
// control sequence (ESC, DEL, a C1 CSI) or as bytes that are not UTF-8.
#include <string_view>

namespace cudaenv {

void print_error(std::string_view message, std::string_view hint = {});

}  // namespace cudaenv
