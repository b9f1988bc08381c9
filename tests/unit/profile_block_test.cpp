#include <doctest/doctest.h>

#include "core/profile_block.hpp"

using namespace cudaenv;

namespace {
const std::vector<std::string> lines = {"eval \"$(cudaenv init bash)\""};
const std::string bom = "\xEF\xBB\xBF";
}  // namespace

TEST_CASE("profile block: added once, removed exactly") {
    SUBCASE("a profile without a final newline") {
        auto a = add_block("alias ll='ls -l'", lines);
        CHECK(a.changed);
        CHECK(a.newline_added);
        CHECK(a.text.starts_with("alias ll='ls -l'\n# >>> cudaenv >>>"));
        auto again = add_block(a.text, lines);
        CHECK_FALSE(again.changed);
        CHECK(remove_block(a.text, a.newline_added) == std::optional<std::string>("alias ll='ls -l'"));
    }
    SUBCASE("CRLF profiles get CRLF lines") {
        auto a = add_block("x\r\n", lines);
        CHECK(a.text.find("\r\n# <<< cudaenv <<<\r\n") != std::string::npos);
        CHECK(remove_block(a.text, a.newline_added) == std::optional<std::string>("x\r\n"));
    }
    SUBCASE("a block right after a UTF-8 BOM (a PowerShell profile setup created) is found") {
        auto a = add_block("", lines);
        auto created = bom + a.text;
        CHECK(has_block(created));
        CHECK_FALSE(add_block(created, lines).changed);
        CHECK(remove_block(created, false) == std::optional<std::string>(bom));
    }
    SUBCASE("a marker inside a line is no block") {
        CHECK_FALSE(has_block("echo '# >>> cudaenv >>>'\necho '# <<< cudaenv <<<'\n"));
    }
}
