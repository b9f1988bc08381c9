#include <doctest/doctest.h>

#include "setup/profile_block.hpp"
#include "shell/shells.hpp"

using namespace cudaenv;

TEST_CASE("the line endings each real shell reads (the shell table; docs/setup.md)") {
    auto reads = [](std::string_view sh, LineEnding e) { return shell_info(sh).reads.accepts(e); };
    for (auto sh : {"bash", "zsh", "fish", "pwsh"}) CHECK(reads(sh, LineEnding::lf));
    CHECK_FALSE(reads("bash", LineEnding::crlf));
    CHECK_FALSE(reads("zsh", LineEnding::cr));
    CHECK(reads("fish", LineEnding::crlf));
    CHECK_FALSE(reads("fish", LineEnding::cr));
    CHECK(reads("pwsh", LineEnding::cr));
}

TEST_CASE("append_insertion / remove_at") {
    auto block = render_block({"x"}, "\n");
    CHECK(block.starts_with(std::string(block_begin)));
    CHECK(block.ends_with(std::string(block_end) + "\n"));
    SUBCASE("a last line without a line break gets one, and loses it again") {
        auto ins = append_insertion("alias ll='ls -l'", block, "\n");
        CHECK(ins.offset == 16);
        CHECK(ins.bytes == "\n" + block);
        auto text = apply_insertion("alias ll='ls -l'", ins);
        CHECK(remove_at(text, ins, ins.offset) == "alias ll='ls -l'");
    }
    SUBCASE("a line written after the block since keeps its own line") {
        auto ins = append_insertion("a", block, "\n");
        auto text = apply_insertion("a", ins) + "b\n";
        CHECK(remove_at(text, ins, ins.offset) == "a\nb\n");
    }
    SUBCASE("a CR-only file ends its last line with CR") {
        auto ins = append_insertion("a\r", block, "\r");
        CHECK(ins.bytes == block);
    }
}

TEST_CASE("locate") {
    auto block = render_block({"x"}, "\n");
    Insertion ins{2, block};
    CHECK(locate("a\n" + block, ins).state == Found::here);
    auto moved = locate("new\na\n" + block, ins);
    CHECK(moved.state == Found::here);
    CHECK(moved.offset == 6);
    CHECK(locate("a\n" + block + block, ins).state == Found::here);  // at its offset, the copy is the user's
    CHECK(locate("zz\na\n" + block + block, ins).state == Found::ambiguous);
    CHECK(locate("a\n" + block.substr(0, 10), ins).state == Found::absent);
}

TEST_CASE("has_begin_marker: only at the start of a line") {
    CHECK(has_begin_marker(std::string(block_begin) + "\n"));
    CHECK(has_begin_marker("x\n" + std::string(block_begin)));
    CHECK(has_begin_marker(std::string(utf8_bom) + std::string(block_begin)));
    CHECK_FALSE(has_begin_marker("echo '# >>> cudaenv >>>'\n"));
}
