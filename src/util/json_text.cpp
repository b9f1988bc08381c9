#include "util/json_text.hpp"

#include <set>

#include <nlohmann/json.hpp>

#include "util/strings.hpp"

namespace cudaenv {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The index just past the string that starts at `i` (a '"').
size_t skip_string(std::string_view t, size_t i) {
    for (++i; i < t.size(); ++i) {
        if (t[i] == '\\') ++i;
        else if (t[i] == '"') return i + 1;
    }
    return t.size();
}

size_t skip_blanks(std::string_view t, size_t i) {
    while (i < t.size() && blank(t[i])) ++i;
    return i;
}

// The index just past the value that starts at `i`.
size_t skip_value(std::string_view t, size_t i) {
    if (i >= t.size()) return i;
    if (t[i] == '"') return skip_string(t, i);
    if (t[i] == '{' || t[i] == '[') {
        size_t depth = 0;
        for (; i < t.size(); ++i) {
            char c = t[i];
            if (c == '"') {
                i = skip_string(t, i) - 1;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i + 1;
            }
        }
        return t.size();
    }
    while (i < t.size() && !blank(t[i]) && t[i] != ',' && t[i] != '}' && t[i] != ']') ++i;
    return i;
}

}  // namespace

std::optional<std::string> check_json_limits(std::string_view text, const JsonLimits& limits) {
    if (text.size() > limits.max_bytes)
        return "it is larger than " + std::to_string(limits.max_bytes >> 20) + " MiB";
    size_t depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '"') {
            i = skip_string(text, i) - 1;
        } else if (c == '{' || c == '[') {
            if (++depth > limits.max_depth)
                return "it nests more than " + std::to_string(limits.max_depth) + " levels deep (at byte " +
                       std::to_string(i) + ")";
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

nlohmann::json parse_json(std::string_view text) {
    if (check_json_limits(text)) return nlohmann::json(nlohmann::json::value_t::discarded);
    return nlohmann::json::parse(text, nullptr, false);
}

nlohmann::ordered_json parse_ordered_json(std::string_view text) {
    if (check_json_limits(text)) return nlohmann::ordered_json(nlohmann::ordered_json::value_t::discarded);
    return nlohmann::ordered_json::parse(text, nullptr, false);
}

JsonSpan json_root(std::string_view text) {
    size_t b = skip_blanks(text, text.starts_with(str::utf8_bom) ? str::utf8_bom.size() : 0);  // which nlohmann skips
    return {b, skip_value(text, b)};
}

std::vector<JsonMember> json_members(std::string_view text, JsonSpan object) {
    std::vector<JsonMember> out;
    size_t i = skip_blanks(text, object.begin + 1);
    while (i < object.end && text[i] == '"') {
        JsonMember m;
        m.key_span = {i, skip_string(text, i)};
        auto key = nlohmann::json::parse(text.substr(i, m.key_span.end - i), nullptr, false);
        if (key.is_string()) m.key = key.get<std::string>();
        i = skip_blanks(text, m.key_span.end);
        i = skip_blanks(text, i + 1);  // the ':'
        m.value = {i, skip_value(text, i)};
        out.push_back(std::move(m));
        i = skip_blanks(text, out.back().value.end);
        if (i < object.end && text[i] == ',') i = skip_blanks(text, i + 1);
    }
    return out;
}

std::vector<JsonSpan> json_elements(std::string_view text, JsonSpan array) {
    std::vector<JsonSpan> out;
    size_t i = skip_blanks(text, array.begin + 1);
    while (i < array.end && text[i] != ']') {
        out.push_back({i, skip_value(text, i)});
        i = skip_blanks(text, out.back().end);
        if (i < array.end && text[i] == ',') i = skip_blanks(text, i + 1);
    }
    return out;
}

std::optional<std::string> json_duplicate_key(std::string_view text) {
    if (check_json_limits(text)) return std::nullopt;
    std::vector<std::set<std::string>> keys;  // of each object being read, innermost last
    std::optional<std::string> found;
    using J = nlohmann::json;
    J::parser_callback_t cb = [&](int, J::parse_event_t ev, J& value) {
        if (ev == J::parse_event_t::object_start) keys.emplace_back();
        else if (ev == J::parse_event_t::object_end && !keys.empty()) keys.pop_back();
        else if (ev == J::parse_event_t::key && !found && !keys.empty() && !keys.back().insert(value.get<std::string>()).second)
            found = value.get<std::string>();
        return true;
    };
    auto parsed = J::parse(text, cb, false);  // read for its keys only
    (void)parsed;
    return found;
}

}  // namespace cudaenv
