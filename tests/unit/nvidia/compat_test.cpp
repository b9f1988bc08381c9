// NVIDIA's facts below gpu/ and check/ (src/nvidia): the driver against each
// CUDA release (driver_support), for every driver branch of drivers.toml;
// forward compatibility on a table of {host driver, pair, GPU kind}; the
// bounded readers of nvidia-smi's banner and the kernel module's version.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "nvidia/compat.hpp"
#include "nvidia/driver.hpp"
#include "nvidia/driver_support.hpp"
#include "nvidia/forward_compat.hpp"
#include "platform/nvidia_driver.hpp"
#include "test_support.hpp"
#include "util/embedded.hpp"
#include "util/fs.hpp"

using namespace cudaenv;
using namespace cudaenv::nvidia;
using testsupport::TempDir;

namespace {

Version v(const char* s) { return *Version::parse(s); }

}  // namespace

TEST_CASE("the newest CUDA each driver branch runs (drivers.toml, every branch)") {
    // One driver of every branch the table has, with what NVIDIA's table says it runs natively.
    const std::pair<const char*, const char*> linux_branches[] = {
        {"450.80.02", "11.0"},  {"455.32.00", "11.1"},  {"460.32.03", "11.2"},  {"465.19.01", "11.3"},
        {"470.256.02", "11.4"}, {"495.29.05", "11.5"},  {"510.47.03", "11.6"},  {"515.65.01", "11.7"},
        {"520.61.05", "11.8"},  {"525.60.13", "12.0"},  {"530.30.02", "12.1"},  {"535.104.05", "12.2"},
        {"545.23.08", "12.3"},  {"550.54.15", "12.4"},  {"555.42.06", "12.5"},  {"560.35.05", "12.6"},
        {"570.124.06", "12.8"}, {"575.57.08", "12.9"},  {"580.65.06", "13.0"},  {"580.159.04", "13.0"},
        {"590.44.01", "13.1 or newer"}};
    for (const auto& [driver, cuda] : linux_branches) {
        CAPTURE(driver);
        CHECK(newest_cuda_for(driver, false) == cuda);
    }
    CHECK(newest_cuda_for("535.104.05", true) == "12.1");  // Windows numbers its drivers apart
    CHECK(newest_cuda_for("537.13", true) == "12.2");
    CHECK(newest_cuda_for("576.57", true) == "12.9 or newer");  // CUDA 13's Windows column is not in the table
    // A branch newer than the table: an honest "or newer", never a wrong number.
    CHECK(newest_cuda_for("610.43.02", false) == "13.1 or newer");
    // Older than every row, or no version at all.
    CHECK(newest_cuda_for("418.39", false) == "");
    CHECK(newest_cuda_for("new", false) == "");
}

TEST_CASE("the driver against a CUDA release: one decision") {
    SUBCASE("the issue's example: 470 and CUDA 12.6") {
        auto j = judge_driver("470.256.02", v("12.6.3"), false);
        CHECK(j.fit == DriverFit::too_old);
        CHECK(j.why == "driver 470.256.02 runs CUDA up to 11.4; 12.6 needs >= 525.60.13");
        CHECK(j.floor == "525.60.13");
        CHECK(j.needs == "560.35.05");
    }
    SUBCASE("minor-version compatibility: runs, without JIT of newer PTX") {
        auto j = judge_driver("535.104.05", v("12.6"), false);
        CHECK(j.fit == DriverFit::minor_compat);
        CHECK(j.why.find("driver 535.104.05 runs CUDA up to 12.2; 12.6 runs through minor-version compatibility") == 0);
        CHECK(j.why.find("12.6 needs >= 560.28.03 for all of it") != std::string::npos);
        CHECK(judge_driver("470.256.02", v("11.8"), false).fit == DriverFit::minor_compat);
        CHECK(judge_driver("580.65.06", v("13.0.2"), false).fit == DriverFit::minor_compat);  // 13.0.2 needs 580.95.05
    }
    SUBCASE("at or above the release's own minimum") {
        CHECK(judge_driver("560.28.03", v("12.6"), false).fit == DriverFit::runs);
        CHECK(judge_driver("580.159.04", v("12.6.3"), false).fit == DriverFit::runs);
        CHECK(judge_driver("580.159.04", v("13.0.2"), false).fit == DriverFit::runs);
        CHECK(judge_driver("580.159.04", v("11.8"), false).fit == DriverFit::runs);
    }
    SUBCASE("a release newer than the table") {
        // 13.2 has no row: its major's floor speaks; a driver newer than every row runs it.
        CHECK(judge_driver("580.159.04", v("13.2"), false).fit == DriverFit::minor_compat);
        CHECK(judge_driver("610.43.02", v("13.2"), false).fit == DriverFit::runs);
        CHECK(judge_driver("610.43.02", v("14.0"), false).fit == DriverFit::unknown);
    }
    SUBCASE("Windows: CUDA 13's minimum is not in the table") {
        CHECK(judge_driver("527.41", v("12.6"), true).fit == DriverFit::minor_compat);
        CHECK(judge_driver("581.15", v("13.0"), true).fit == DriverFit::unknown);
    }
    SUBCASE("the driver's own word wins (cuDriverGetVersion, nvidia-smi)") {
        CHECK(judge_driver("", v("12.6"), false, "11.4").fit == DriverFit::too_old);
        CHECK(judge_driver("", v("12.6"), false, "12.2").fit == DriverFit::minor_compat);
        CHECK(judge_driver("", v("12.6"), false, "13.0").fit == DriverFit::runs);
        CHECK(judge_driver("", v("12.6"), false, "11.4").why == "the driver runs CUDA up to 11.4; 12.6 needs >= 525.60.13");
    }
    SUBCASE("nothing known") {
        CHECK(judge_driver("", v("12.6"), false).fit == DriverFit::unknown);
        CHECK(judge_driver("x.y", v("12.6"), false).fit == DriverFit::unknown);
    }
}

TEST_CASE("forward compatibility decided as NVIDIA does: {host driver, pair, GPU kind}") {
    TempDir t("compat");
    // A cuda-compat folder as NVIDIA's cuda-compat-X-Y package lays it out.
    auto compat = [&](const std::string& dir, const std::string& version) {
        std::filesystem::create_directories(t / dir);
        std::ofstream(t / dir / ("libcuda.so." + version)) << "compat";
        std::ofstream(t / dir / "libcuda.so.1") << "link";
        return *read_compat_dir(t / dir);
    };
    const auto compat126 = compat("c126", "560.35.05");
    const auto compat130 = compat("c130", "580.95.05");
    const auto compat_old = compat("old", "530.30.02");
    CHECK(compat126.version == "560.35.05");
    CHECK(compat126.libcuda.filename() == "libcuda.so.560.35.05");
    CHECK_FALSE(read_compat_dir(t / "nothing"));

    const CompatGpu h100{"GPU 0 (NVIDIA H100 80GB HBM3, sm_90)", "NVIDIA H100 80GB HBM3"};
    const CompatGpu geforce{"GPU 0 (NVIDIA GeForce RTX 4090, sm_89)", "NVIDIA GeForce RTX 4090"};
    const CompatGpu planned{"sm_90", ""};
    struct Row {
        const char* host;
        const char* cuda;
        CompatGpu gpu;
        std::vector<CompatLibs> found;
        CompatChoice::Kind kind;
        int error;
        const char* says;
    };
    const Row rows[] = {
        // The host runs it: no compat libraries, whatever the GPU.
        {"580.159.04", "12.6.3", h100, {compat126}, CompatChoice::Kind::not_needed, 0, "needs no forward compatibility"},
        {"535.104.05", "12.6.3", geforce, {}, CompatChoice::Kind::not_needed, 0, "minor-version compatibility"},
        // Compat libraries older than the host driver on the path would fail with 803.
        {"560.35.05", "12.6.3", h100, {compat_old}, CompatChoice::Kind::not_needed, 0, "error 803"},
        // Too old a host: on a data-centre GPU the compat libraries that are newer and run the release.
        {"470.256.02", "12.6.3", h100, {compat126}, CompatChoice::Kind::use, 0, "forward compatibility: the cuda-compat"},
        {"535.104.05", "13.0.2", h100, {compat126, compat130}, CompatChoice::Kind::use, 0, "580.95.05"},
        // ...not on a GeForce (804), nor on a GPU the table does not know.
        {"470.256.02", "12.6.3", geforce, {compat126}, CompatChoice::Kind::refused, 804, "does not support forward"},
        {"470.256.02", "12.6.3", planned, {compat126}, CompatChoice::Kind::unknown, 0, "12.6 needs >= 525.60.13"},
        {"470.256.02", "12.6.3", {"GPU 0 (Quadro P400, sm_61)", "Quadro P400"}, {compat126}, CompatChoice::Kind::refused,
         804, "not known to support"},
        // Compat libraries too old for the release, or none at all.
        {"470.256.02", "13.0.2", h100, {compat126}, CompatChoice::Kind::refused, 0, "do not run CUDA 13.0"},
        {"470.256.02", "12.6.3", h100, {compat_old}, CompatChoice::Kind::use, 0, "530.30.02"},
        {"525.60.13", "13.0.2", h100, {compat_old}, CompatChoice::Kind::refused, 0, "do not run CUDA 13.0"},
        {"560.35.05", "13.0.2", h100, {compat126}, CompatChoice::Kind::refused, 803, "not newer than the host driver"},
        {"470.256.02", "12.6.3", h100, {}, CompatChoice::Kind::refused, 0, "install cuda-compat-12-6"},
        // Nothing known of the host.
        {"", "12.6.3", h100, {compat126}, CompatChoice::Kind::unknown, 0, "no NVIDIA driver known"},
    };
    for (const auto& r : rows) {
        CAPTURE(r.host);
        CAPTURE(r.cuda);
        CAPTURE(r.gpu.label);
        auto host = judge_driver(r.host, v(r.cuda), false);
        auto c = decide_forward_compat(host, v(r.cuda), {r.gpu}, r.found, false);
        CHECK(c.kind == r.kind);
        CHECK(c.error == r.error);
        CHECK(c.why.find(r.says) != std::string::npos);
        if (c.kind == CompatChoice::Kind::use) CHECK(compare_driver(c.libs.version, r.host) > 0);
    }
}

TEST_CASE("nvidia-smi's banner and the kernel module's version: bounded, validated") {
    CHECK(parse_nvidia_smi("| NVIDIA-SMI 580.159.04   Driver Version: 580.159.04   CUDA Version: 13.0   |\n") ==
          std::pair<std::string, std::string>{"580.159.04", "13.0"});
    CHECK(parse_nvidia_smi("| NVIDIA-SMI 610.43.02  KMD Version: 610.43.02  CUDA UMD Version: 13.3 |") ==
          std::pair<std::string, std::string>{"610.43.02", "13.3"});
    // A version that is not one is no version: nothing, never a piece of it.
    CHECK(parse_nvidia_smi("Driver Version: 580.159.04x CUDA Version: 1.2.3").first.empty());
    CHECK(parse_nvidia_smi("Driver Version: 580.159.04x CUDA Version: 1.2.3").second.empty());
    CHECK(parse_nvidia_smi("Driver Version: 5..1 CUDA Version:").first.empty());
    // 2 MB of digits: read in bounded steps, no recursion, nothing taken.
    const std::string huge = "Driver Version: " + std::string(2 << 20, '9') + " CUDA Version: " + std::string(2 << 20, '1');
    CHECK(parse_nvidia_smi(huge) == std::pair<std::string, std::string>{"", ""});
    CHECK_FALSE(platform::parse_proc_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  " + std::string(2 << 20, '5')));
    CHECK(platform::parse_proc_driver_version(
              "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  (dvs-builder@U16)\n") ==
          std::optional<std::string>("580.95.05"));
    CHECK(platform::parse_sys_module_version("580.159.04\n") == std::optional<std::string>("580.159.04"));
    CHECK_FALSE(platform::parse_sys_module_version("580.159.04 extra\n"));
    CHECK(platform::is_driver_version("535"));
    CHECK(platform::is_driver_version("535.104.05"));
    CHECK_FALSE(platform::is_driver_version("535.104.05.1.2"));
    CHECK_FALSE(platform::is_driver_version(std::string(33, '1')));
    CHECK_FALSE(platform::is_driver_version("1234567890.1"));
}

TEST_CASE("the cuDNN rows: 9.6 to 9.10, Blackwell with CUDA 12.8 only, unconfirmed rows") {
    const auto& c = Compat::get();
    for (const char* r : {"9.6.0", "9.7.1", "9.8.0", "9.9.0", "9.10.2"}) {
        CAPTURE(r);
        auto s = c.cudnn(v(r));
        REQUIRE(s.row);
        CHECK(s.exact);
        CHECK_FALSE(s.row->source.empty());
    }
    auto s98 = c.cudnn(v("9.8.0"));
    CHECK(s98.confirmed());
    CHECK(s98.row->cc_for(v("12.6"))->str() == "5.0-9.0");
    CHECK(s98.row->cc_for(v("12.8"))->str() == "5.0-12.0");
    CHECK(s98.row->cc_for(std::nullopt)->str() == "5.0-12.0");  // the widest of its builds
    auto s99 = c.cudnn(v("9.9.0"));
    CHECK_FALSE(s99.confirmed());  // its own support matrix was not read here
    CHECK(unconfirmed_note(s99).find("support matrix") != std::string::npos);
    CHECK_FALSE(c.cudnn(v("9.14.0")).confirmed());  // between rows: judged by 9.13's
}

TEST_CASE("the embedded compatibility table") {
    REQUIRE(embedded::find("compat.toml"));
    const auto& c = Compat::get();
    REQUIRE(c.cuda_family(12));
    CHECK(c.cuda_family(12)->cc_min == *Version::parse("5.0"));
    // The drivers (drivers.toml): floors by major and OS, each release's own minimum.
    const auto& d = Drivers::get();
    REQUIRE(d.floor(12));
    CHECK(d.floor(12)->on(false) == "525.60.13");
    CHECK(d.floor(12)->on(true) == "527.41");
    CHECK(d.floor(13)->on(true).empty());  // not confirmed: left out
    REQUIRE(d.release(*Version::parse("11.8.89")));
    CHECK(d.release(*Version::parse("11.8.89"))->on(false) == "520.61.05");
    CHECK(d.release(*Version::parse("11.8.89"))->on(true) == "520.06");
    CHECK(d.release(*Version::parse("12.6"))->on(false) == "560.28.03");    // a major.minor is its GA
    CHECK(d.release(*Version::parse("12.6.3"))->on(false) == "560.35.05");
    CHECK(d.release(*Version::parse("13.2")) == nullptr);                    // no row: its major's floor decides
    auto s = c.cudnn(*Version::parse("8.9.7"));
    REQUIRE(s.row);
    CHECK(s.exact);
    CHECK(s.row->cc->contains(*Version::parse("9.0")));
    CHECK_FALSE(s.row->cc->contains(*Version::parse("10.0")));
    auto s14 = c.cudnn(*Version::parse("9.14.0"));
    REQUIRE(s14.row);
    CHECK_FALSE(s14.exact);
    CHECK(s14.row->versions.str() == "9.13");

    CHECK(c.pair_conflict(*Version::parse("11.8"), *Version::parse("8.9.7")).empty());
    CHECK(c.pair_conflict(*Version::parse("12.2"), *Version::parse("8.9.7")).empty());
    CHECK(c.pair_conflict(*Version::parse("12.4"), *Version::parse("8.9.7")).find("not CUDA 12.4") != std::string::npos);
    CHECK(c.pair_conflict(*Version::parse("11.8"), *Version::parse("9.17.0")).find("not CUDA 11.8") != std::string::npos);
    bool unconfirmed = false;
    // 9.14 is judged by 9.13's row: CUDA 13.0 fits, 11.8 does not.
    CHECK(c.pair_conflict(*Version::parse("13.0"), *Version::parse("9.14.0"), &unconfirmed).empty());
    CHECK(c.pair_conflict(*Version::parse("11.8"), *Version::parse("9.14.0"), &unconfirmed).find("unconfirmed") !=
          std::string::npos);
    CHECK(unconfirmed);
    // A neighbouring row never rules out a minor version of a listed major.
    CHECK(c.pair_conflict(*Version::parse("13.2"), *Version::parse("9.19.0")).empty());

    bool tf = false;
    for (const auto& f : c.frameworks())
        tf = tf || (f.name == "tensorflow" && f.version == "2.10" && f.cuda == *Version::parse("11.2"));
    CHECK(tf);
    CHECK(compare_driver("580.159.04", "580.65.06") > 0);
    CHECK(compare_driver("525.60.13", "525.60.13") == 0);
    CHECK(compare_driver("470.1", "525") < 0);
}

TEST_CASE("Compat::parse rejects malformed data") {
    CHECK_THROWS(Compat::parse("[[cudnn]]\nversions = \"x.y\"\n"));
    CHECK_THROWS(Compat::parse("not toml ["));
}
