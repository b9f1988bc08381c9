#include "store/conv_choice.hpp"

#include "util/cache_file.hpp"
#include "util/records.hpp"

namespace cudaenv {

namespace {

constexpr std::string_view header = "cudaenv conv choice 1\n";

}  // namespace

ConvChoices::ConvChoices(const std::filesystem::path& file) : file_(file) {
    std::string text;
    std::map<std::string, std::string_view> entries;
    load_cache_index(file, header, 1 << 20, text, entries);
    for (const auto& [key, record] : entries) {
        auto fields = records::fields_of(record);
        if (fields && fields->size() >= 2) choices_[key] = std::string((*fields)[1]);
    }
}

std::string ConvChoices::get(const std::string& key) const {
    auto it = choices_.find(key);
    return it == choices_.end() ? std::string() : it->second;
}

void ConvChoices::set(const std::string& key, const std::string& choice) {
    if (choice.empty() || get(key) == choice) return;
    choices_[key] = choice;
    dirty_ = true;
}

void ConvChoices::save() const {
    if (!dirty_) return;
    std::string out(header);
    for (const auto& [key, choice] : choices_) records::put_record(out, {key, choice});
    save_cache_file(file_, out);
}

}  // namespace cudaenv
