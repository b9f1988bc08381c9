#pragma once
// The store's own cache files (cache/config.txt, cache/detected.txt, ...):
// records of fields, each field written as "<length>:<bytes>", each record
// ended by "#<checksum>" and a newline. Any bytes pass unchanged (a path may
// hold a tab or a newline), and reading one costs a scan of lengths: no
// escaping, no parser. These files are only caches of what cudaenv itself
// worked out; a damaged one reads as "not there". The checksum (64 bits over
// the record's fields) catches a record changed in place with its lengths
// intact (a flipped byte, `cuda-12.4` made `cuda-66.6`): a reader asks
// intact() before it uses a record, and such a record is worked out again.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudaenv::records {

// Appends one field to `out`.
void put(std::string& out, std::string_view field);
// Appends a whole record (its fields, then its checksum and the newline).
void put_record(std::string& out, const std::vector<std::string_view>& fields);
// Ends the record whose first field starts at `out[start]`: its checksum and the newline.
void end(std::string& out, size_t start);

// The checksum of a record's fields as written (the bytes before '#').
unsigned long long checksum(std::string_view fields_text);

// Reads the records of a text in order; views point into the text.
class Reader {
public:
    explicit Reader(std::string_view text) : text_(text) {}
    // The next record's fields (false at the end, or when the text is damaged:
    // check damaged()). `raw` gets the record's own text, newline included.
    bool next(std::vector<std::string_view>& fields, std::string_view* raw = nullptr);
    bool damaged() const { return damaged_; }
    // Whether the record next() returned last reads as it was written.
    bool intact() const;

private:
    std::string_view text_;
    size_t pos_ = 0;
    bool damaged_ = false;
    std::string_view last_fields_;
    unsigned long long last_sum_ = 0;
};

// The fields of one record's text (as `raw` gave it), or nullopt if damaged
// (its checksum included).
std::optional<std::vector<std::string_view>> fields_of(std::string_view record);

// A cursor over a record's fields, for decoding them in order.
class Fields {
public:
    explicit Fields(const std::vector<std::string_view>& f, size_t first = 0) : f_(f), i_(first) {}
    // The next field; throws std::out_of_range past the end.
    std::string_view next();
    std::string str() { return std::string(next()); }
    // A decimal count or number; throws std::out_of_range when it is not one.
    long long number();
    bool at_end() const { return i_ >= f_.size(); }

private:
    const std::vector<std::string_view>& f_;
    size_t i_;
};

}  // namespace cudaenv::records
