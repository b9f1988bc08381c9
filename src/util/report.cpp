#include "util/report.hpp"

#include <iostream>
#include <string>

#include "util/strings.hpp"

namespace cudaenv {

void print_error(std::string_view message, std::string_view hint) {
    std::string text = "cudaenv: error: " + str::visible(message) + "\n";
    if (!hint.empty()) text += "hint: " + str::visible(hint) + "\n";
    std::cerr << text << std::flush;
}

}  // namespace cudaenv
