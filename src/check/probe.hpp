#pragma once
// The child side of `cudaenv check`: runs inside a process started with one
// pair's environment (`cudaenv __probe ...`), does every step in this
// process, and prints each step's result as one line as soon as it is known,
// so the parent still learns how far it got if a library crashes or hangs.
#include <iosfwd>

#include "check/probe_options.hpp"

namespace cudaenv::check {

// Runs the steps; returns the process exit status (0 when it ran to the end).
int run_probe(const ProbeOptions& opts, std::ostream& out);

}  // namespace cudaenv::check
