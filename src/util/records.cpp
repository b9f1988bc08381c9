#include "util/records.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace cudaenv::records {

namespace {

constexpr size_t sum_digits = 16;

// Eight bytes at a time, each step (h ^ word) * an odd constant: a bijection
// of h, so a record that differs from the one written in any one 8-byte word
// always has another checksum; cheap enough to check on every switch.
unsigned long long sum_of(std::string_view s) {
    std::uint64_t h = 0xcbf29ce484222325ULL ^ s.size();
    constexpr std::uint64_t prime = 0x100000001b3ULL;
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        h = (h ^ w) * prime;
    }
    std::uint64_t tail = 0;
    std::memcpy(&tail, s.data() + i, s.size() - i);
    h = (h ^ tail) * prime;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);
}

}  // namespace

unsigned long long checksum(std::string_view fields_text) { return sum_of(fields_text); }

void put(std::string& out, std::string_view field) {
    out += std::to_string(field.size());
    out += ':';
    out += field;
}

void end(std::string& out, size_t start) {
    char hex[sum_digits + 1];
    auto sum = sum_of(std::string_view(out).substr(start));
    for (size_t i = 0; i < sum_digits; ++i) hex[i] = "0123456789abcdef"[(sum >> (60 - 4 * i)) & 0xf];
    out += '#';
    out.append(hex, sum_digits);
    out += '\n';
}

void put_record(std::string& out, const std::vector<std::string_view>& fields) {
    const size_t start = out.size();
    for (auto f : fields) put(out, f);
    end(out, start);
}

bool Reader::next(std::vector<std::string_view>& fields, std::string_view* raw) {
    fields.clear();
    if (damaged_ || pos_ >= text_.size()) return false;
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '#') {
        size_t len = 0;
        auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), len);
        size_t colon = static_cast<size_t>(end - text_.data());
        if (ec != std::errc() || colon >= text_.size() || text_[colon] != ':' || len > text_.size() - colon - 1) {
            damaged_ = true;
            return false;
        }
        fields.push_back(text_.substr(colon + 1, len));
        pos_ = colon + 1 + len;
    }
    // "#", the checksum in hex, the newline; anything else is a torn or foreign file.
    unsigned long long sum = 0;
    const char* digits = text_.data() + pos_ + 1;
    if (text_.size() - pos_ < sum_digits + 2 || text_[pos_ + 1 + sum_digits] != '\n' ||
        std::from_chars(digits, digits + sum_digits, sum, 16).ptr != digits + sum_digits) {
        damaged_ = true;
        return false;
    }
    last_fields_ = text_.substr(start, pos_ - start);
    last_sum_ = sum;
    pos_ += sum_digits + 2;
    if (raw) *raw = text_.substr(start, pos_ - start);
    return true;
}

bool Reader::intact() const { return sum_of(last_fields_) == last_sum_; }

std::optional<std::vector<std::string_view>> fields_of(std::string_view record) {
    Reader r(record);
    std::vector<std::string_view> f;
    if (!r.next(f) || !r.intact()) return std::nullopt;
    return f;
}

std::string_view Fields::next() {
    if (i_ >= f_.size()) throw std::out_of_range("record: too few fields");
    return f_[i_++];
}

long long Fields::number() {
    auto s = next();
    long long v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) throw std::out_of_range("record: not a number");
    return v;
}

}  // namespace cudaenv::records
