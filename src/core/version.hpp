#pragma once
// Dotted version numbers (11.8, 12.6.3, 8.9.7.29) and prefix matching.
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudaenv {

class Version {
public:
    Version() = default;
    explicit Version(std::vector<int> parts) : parts_(std::move(parts)) {}

    // "12.6.3" -> {12,6,3}; nullopt unless 1..4 dot-separated decimal fields.
    static std::optional<Version> parse(std::string_view s);

    const std::vector<int>& parts() const { return parts_; }
    bool empty() const { return parts_.empty(); }
    int major() const { return parts_.empty() ? 0 : parts_[0]; }
    int minor() const { return parts_.size() > 1 ? parts_[1] : 0; }
    std::string str() const;
    // The first n fields ("12.6.3".prefix(2) == "12.6").
    Version prefix(size_t n) const;

    // True when every field of `prefix` equals this version's field:
    // 12.6.3 matches 12, 12.6 and 12.6.3, not 12.60 or 12.6.3.1.
    bool matches(const Version& prefix) const;

    // Numeric, field by field; a missing field counts as -1 so 12.6 < 12.6.0.
    std::strong_ordering operator<=>(const Version& o) const;
    bool operator==(const Version& o) const = default;

private:
    std::vector<int> parts_;
};

}  // namespace cudaenv
