#pragma once
// A spec names a pair: "11.8", "12+9", "11.8+8.9.7", "12.4+none" or "system".
#include <optional>
#include <string>
#include <string_view>

#include "core/version.hpp"

namespace cudaenv {

struct Spec {
    enum class Cudnn { default_, version, none };

    bool system = false;
    Version cuda;                   // prefix to match (empty for system)
    Cudnn cudnn_kind = Cudnn::default_;
    Version cudnn;                  // when cudnn_kind == version

    // Strict: digits, dots, one '+', "none", "system"; nothing else, so a spec
    // read from a file can never smuggle shell syntax. nullopt when malformed.
    static std::optional<Spec> parse(std::string_view text);
    // Like parse, but throws UsageError with a hint showing valid forms.
    static Spec parse_or_throw(std::string_view text);

    std::string str() const;
    bool operator==(const Spec&) const = default;
};

}  // namespace cudaenv
