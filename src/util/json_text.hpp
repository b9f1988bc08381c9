#pragma once
// JSON text read from disk, bounded before nlohmann parses it, and edited in
// place. nlohmann's parser is iterative, but its serializer, its comparisons
// and every caller that walks a document recurse once per level: a 200 KB
// file nested 100,000 deep (a CMakeUserPresets.json a repository carries)
// overflowed the stack. Every JSON text cudaenv reads goes through
// check_json_limits (parse_json and parse_ordered_json do it). Knows nothing
// of CUDA.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace cudaenv {

struct JsonLimits {
    size_t max_bytes = 16u << 20;  // the whole text
    size_t max_depth = 64;         // nested [ and {
};

// Why `text` is beyond `limits` (at which byte), or nullopt. Only looks at
// structure: a text within the limits may still be invalid JSON.
std::optional<std::string> check_json_limits(std::string_view text, const JsonLimits& limits = {});

// The parsed value, or a discarded one (is_discarded()) when `text` is not
// JSON or beyond the limits. Never throws.
nlohmann::json parse_json(std::string_view text);
nlohmann::ordered_json parse_ordered_json(std::string_view text);

// Byte ranges of valid JSON text, for changing one part and keeping every
// other byte (the user's numbers, spacing and key order).
struct JsonSpan {
    size_t begin = 0, end = 0;  // [begin, end)
};
struct JsonMember {
    std::string key;  // decoded
    JsonSpan key_span, value;
};
// The span of the document's top-level value (without surrounding blanks).
JsonSpan json_root(std::string_view text);
// The members of the object at `object`, in order (duplicates kept).
std::vector<JsonMember> json_members(std::string_view text, JsonSpan object);
// The elements of the array at `array`, in order.
std::vector<JsonSpan> json_elements(std::string_view text, JsonSpan array);
// The first key that an object of `text` holds twice; nullopt when there is
// none or `text` is not JSON. (nlohmann keeps the last of such keys, CMake
// refuses the file.)
std::optional<std::string> json_duplicate_key(std::string_view text);

}  // namespace cudaenv
