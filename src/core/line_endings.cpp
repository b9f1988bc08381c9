#include "core/line_endings.hpp"

namespace cudaenv {

LineEnding line_ending_of(std::string_view text) {
    size_t lf = 0, crlf = 0, cr = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') ++lf;
        else if (text[i] == '\r') {
            if (i + 1 < text.size() && text[i + 1] == '\n') {
                ++crlf;
                ++i;
            } else {
                ++cr;
            }
        }
    }
    if (crlf > 0 && lf == 0) return LineEnding::crlf;
    if (cr > 0 && lf == 0 && crlf == 0) return LineEnding::cr;
    return LineEnding::lf;
}

std::string_view eol_bytes(LineEnding e) {
    switch (e) {
    case LineEnding::crlf: return "\r\n";
    case LineEnding::cr: return "\r";
    case LineEnding::lf: break;
    }
    return "\n";
}

std::string_view line_ending_name(LineEnding e) {
    switch (e) {
    case LineEnding::crlf: return "Windows (CRLF)";
    case LineEnding::cr: return "classic Mac (CR)";
    case LineEnding::lf: break;
    }
    return "Unix (LF)";
}

}  // namespace cudaenv
