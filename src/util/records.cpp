#include "util/records.hpp"

#include <charconv>
#include <stdexcept>

namespace cudaenv::records {

void put(std::string& out, std::string_view field) {
    out += std::to_string(field.size());
    out += ':';
    out += field;
}

void put_record(std::string& out, const std::vector<std::string_view>& fields) {
    for (auto f : fields) put(out, f);
    end(out);
}

bool Reader::next(std::vector<std::string_view>& fields, std::string_view* raw) {
    fields.clear();
    if (damaged_ || pos_ >= text_.size()) return false;
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '\n') {
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
    if (pos_ >= text_.size()) {  // a record without its newline: cut short
        damaged_ = true;
        return false;
    }
    ++pos_;
    if (raw) *raw = text_.substr(start, pos_ - start);
    return true;
}

std::optional<std::vector<std::string_view>> fields_of(std::string_view record) {
    Reader r(record);
    std::vector<std::string_view> f;
    if (!r.next(f)) return std::nullopt;
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
