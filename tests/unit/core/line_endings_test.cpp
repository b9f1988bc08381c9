#include <doctest/doctest.h>

#include "core/line_endings.hpp"

using namespace cudaenv;

TEST_CASE("line_ending_of") {
    CHECK(line_ending_of("") == LineEnding::lf);
    CHECK(line_ending_of("a\nb\n") == LineEnding::lf);
    CHECK(line_ending_of("a\r\nb\r\n") == LineEnding::crlf);
    CHECK(line_ending_of("a\rb\r") == LineEnding::cr);
    CHECK(line_ending_of("a\r\nb\n") == LineEnding::lf);  // mixed: LF lines are there
    CHECK(line_ending_of("no break") == LineEnding::lf);
}
