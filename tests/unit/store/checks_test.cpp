#include <doctest/doctest.h>

#include "store/checks.hpp"
#include "store/store.hpp"
#include "test_support.hpp"
#include "util/error.hpp"

using namespace cudaenv;
using namespace testsupport;
namespace fs = std::filesystem;

namespace {

// What `cudaenv check` wrote before checks.toml had a module of its own
// (check/runner.cpp at 7c43973): stores hold files like this.
const char* kOldFile = R"(# Last `cudaenv check` result per pair; written by cudaenv.
[[pair]]
checked_at = '2026-01-31T12:00:00Z'
cudnn = '/opt/cudnn 9'
seconds = 1.25
spec = '12.6.3+9.8.0'
status = 'pass'
summary = 'conv 0.41 ms'
toolkit = '/opt/cuda-12.6'

[[pair]]
advice = 'Run `cudaenv list`; forget or re-add the folder.'
checked_at = '2026-01-30T08:00:00Z'
seconds = 0.0
spec = '11.8.0+none'
status = 'fail'
summary = 'files: gone'
toolkit = '/opt/cuda-11.8'
)";

CheckRecord rec(const char* spec, const char* tk, const char* cudnn, bool pass, const char* summary) {
    return {spec, tk, cudnn, pass, summary, "2026-02-01T00:00:00Z", 2.5, ""};
}

}  // namespace

TEST_CASE("checks.toml: the file stores already hold reads") {
    auto c = Checks::parse(kOldFile, "checks.toml");
    REQUIRE(c.pairs.size() == 2);
    CHECK(c.pairs[0].spec == "12.6.3+9.8.0");
    CHECK(c.pairs[0].cudnn == "/opt/cudnn 9");
    CHECK(c.pairs[0].pass);
    CHECK(c.pairs[0].seconds == doctest::Approx(1.25));
    CHECK(c.pairs[1].cudnn.empty());
    CHECK_FALSE(c.pairs[1].pass);
    CHECK(c.pairs[1].advice.find("forget") != std::string::npos);
    CHECK(c.find("12.6.3+9.8.0", "/opt/cuda-12.6", "/opt/cudnn 9")->status_line() == "pass: conv 0.41 ms");
    CHECK(c.find("11.8.0+none", "/opt/cuda-11.8", "")->status_line() == "fail: files: gone");
    CHECK(c.find("12.6.3+9.8.0", "/opt/cuda-12.6", "") == nullptr);  // another pair of that toolkit
}

TEST_CASE("checks.toml: write, read back, replace by folders") {
    TempDir tmp("checks");
    auto file = tmp / "store" / "checks.toml";
    CHECK(Checks::load(file).pairs.empty());  // missing: empty

    Checks c;
    c.record(rec("12.4.1+9.1.0", "/a", "/b", true, "ok"));
    c.record(rec("11.8.0+none", "/c", "", false, "bad"));
    c.record(rec("12.4.1+9.1.0", "/a", "/b", false, "now bad"));  // same folders: replaced
    REQUIRE(c.pairs.size() == 2);
    CHECK(c.pairs[1].summary == "now bad");
    c.save(file);
    auto text = read(file);
    // No cudnn key for the pair without one.
    CHECK(text.find("cudnn") != std::string::npos);
    CHECK(text.find("cudnn", text.find("cudnn") + 1) == std::string::npos);
    auto back = Checks::load(file);
    CHECK(back.to_toml() == c.to_toml());
    CHECK(back.find("12.4.1+9.1.0", "/a", "/b")->status_line() == "fail: now bad");
}

TEST_CASE("checks.toml: what is not a result is passed over; broken files are errors") {
    auto c = Checks::parse("pair = 1\n", "checks.toml");
    CHECK(c.pairs.empty());
    c = Checks::parse("[[pair]]\nspec = '12.4'\nstatus = 'maybe'\n[[pair]]\nstatus = 'pass'\n", "checks.toml");
    CHECK(c.pairs.size() == 1);
    CHECK_THROWS_AS(Checks::parse("[[pair]\n", "checks.toml"), Error);
    CHECK_THROWS_AS(Checks::parse("[[[x", "checks.toml"), Error);

    // Store::last_check, used by list: an unreadable cache says so, never fails the command.
    TempDir tmp("checks-store");
    Store store(tmp / "store");
    write(store.checks_file(), "[[pair]\n");
    CHECK(store.last_check("12.4", "/a", "") == "unreadable");
    write(store.checks_file(), kOldFile);
    CHECK(store.last_check("12.6.3+9.8.0", "/opt/cuda-12.6", "/opt/cudnn 9") == "pass: conv 0.41 ms");
    CHECK_FALSE(store.last_check("12.6.3+9.8.0", "/opt/cuda-12.6", "").has_value());
}
