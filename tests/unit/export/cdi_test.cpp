// `export cdi` (src/export/cdi.cpp): a pair's spec as a CDI device name, and
// the device drawn from the pair's intent: every value in full, the pair's
// folders mounted read-only at the same paths. Podman, the CDI library and
// hostile folder names: tests/containers.
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "export/formats.hpp"
#include "export_support.hpp"

using namespace cudaenv;
using namespace cudaenv::exporting;

namespace {

PairVars sample(bool with_cudnn) {
    PairVars p = testsupport::pair_vars("/opt/cuda 12.4", "12.4.131", with_cudnn ? "/data/cudnn\n9" : "", "9.1.0");
    p.list_spec = p.spec;
    auto& e = p.diff.edits;
    const std::string oci = ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    e.push_back({"PATH", EnvOp::prepend, "/opt/cuda 12.4/bin" + oci, {"/opt/cuda 12.4/bin"}});
    e.push_back({"LD_LIBRARY_PATH", EnvOp::prepend,
                 with_cudnn ? "/opt/cuda 12.4/lib64:/data/cudnn\n9/lib" : "/opt/cuda 12.4/lib64",
                 with_cudnn ? std::vector<std::string>{"/opt/cuda 12.4/lib64", "/data/cudnn\n9/lib"}
                            : std::vector<std::string>{"/opt/cuda 12.4/lib64"}});
    e.push_back({"CUDA_PATH", EnvOp::set, "/opt/cuda 12.4"});
    e.push_back(with_cudnn ? EnvEdit{"CUDNN_PATH", EnvOp::set, "/data/cudnn\n9"}
                           : EnvEdit{"CUDNN_PATH", EnvOp::unset, std::nullopt});
    e.push_back({"CUDACXX", EnvOp::set, "/opt/cuda 12.4/bin/nvcc"});
    e.push_back({"CUDAENV_VERSION", EnvOp::set, p.spec});
    // Not the pair's own: the host's compiler and `deactivate`'s state.
    e.push_back({"NVCC_CCBIN", EnvOp::fallback, "/usr/bin/g++-12"});
    e.push_back({"__CUDAENV_STATE", EnvOp::state, "v2;PATH=+"});
    return p;
}

}  // namespace

TEST_CASE("a pair's spec as a CDI device name") {
    CHECK(cdi_device_name("11.8.89+8.9.7") == "11.8.89_8.9.7");
    CHECK(cdi_device_name("12.4+none") == "12.4_none");
    CHECK(cdi_device_name("13.0.2@pip+9.19.0.56") == "13.0.2:pip_9.19.0.56");
    CHECK(cdi_device_name("12.6.3+9.6.0@system") == "12.6.3_9.6.0:system");
    CHECK(cdi_device_name("12.6@cuda-12.6+9.8@local-cudnn") == "12.6:cuda-12.6_9.8:local-cudnn");
    // CDI: a name ends with a letter or a digit; an origin may end with '-' or '.'.
    CHECK(cdi_device_name("12.6@my-cuda-+none") == "12.6:my-cuda-_none");
    CHECK_FALSE(cdi_device_name("12.6.3+9.8.0@my-cudnn-").has_value());
    CHECK_FALSE(cdi_device_name("12.6.3+9.8.0@x.").has_value());
    CHECK_FALSE(cdi_device_name("").has_value());
}

TEST_CASE("a CDI device: the pair's values in full, its folders read-only at the same paths") {
    for (bool with_cudnn : {true, false}) {
        CAPTURE(with_cudnn);
        const auto p = sample(with_cudnn);
        auto device = nlohmann::json::parse(find_format("cdi")->render(p, Options{}));
        CHECK(device["name"] == (with_cudnn ? "12.4.131_9.1.0" : "12.4.131_none"));
        std::map<std::string, std::string> env, want;
        for (const auto& item : device["containerEdits"]["env"]) {
            auto s = item.get<std::string>();
            env[s.substr(0, s.find('='))] = s.substr(s.find('=') + 1);
        }
        for (const auto* e : p.intent())
            if (e->value) want[e->name] = *e->value;
        CHECK(env == want);  // no unset (CDI only sets), no host compiler, no state
        std::vector<std::string> mounts;
        for (const auto& m : device["containerEdits"]["mounts"]) {
            CHECK(m["hostPath"] == m["containerPath"]);
            CHECK(m["options"] == nlohmann::json::array({"ro", "nosuid", "nodev", "bind"}));
            mounts.push_back(m["hostPath"]);
        }
        if (with_cudnn) CHECK(mounts == std::vector<std::string>{"/data/cudnn\n9", "/opt/cuda 12.4"});
        else CHECK(mounts == std::vector<std::string>{"/opt/cuda 12.4"});
    }
}
