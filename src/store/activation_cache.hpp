#pragma once
// Whole activations kept in the store (<store>/cache/activations.txt), so
// that `env`, `use`, `exec`, `hook-env` and the tool shim, asked for the
// same spec in the same environment again, read two small files and stat
// the paths the answer depends on: no store lists, no pair selection, no
// detection records, no PATH rewriting (docs/performance.md).
//
// An activation is a pure function of its inputs, and a record holds them
// all beside the result:
//   - the spec, the path style, this build (its version and its file's
//     stamp) and the shared store's folder (or none);
//   - every environment variable planning read, with the value it read
//     (or "unset"): reads are recorded as they happen, so a variable read
//     only because of another's value is there exactly when it mattered;
//   - the text of config.toml (the user's store's, and the shared store's);
//   - the stamps of the store's toolkits/ and cudnn/ folders (what
//     `install` adds), taken before they were listed;
//   - the detection keys of the pair's folders (store/detect_cache.hpp) and
//     the host-compiler key: PATH's folders and the compiler PATH gives
//     (core/host_compiler.hpp).
// A record is used only while every one of them reads the same; otherwise
// the activation is planned again and kept in its place. The newest few
// records are kept (one shell before `use`, one after, a shim's), newest
// first. The file is a cache: written without waiting for the disk, and a
// damaged or foreign one reads as empty. An environment whose PATH holds a
// relative folder (whose stamp depends on the current folder) is not kept.
#include <filesystem>
#include <optional>
#include <string>

#include "core/activation.hpp"
#include "core/spec.hpp"
#include "store/detect_cache.hpp"

namespace cudaenv {

class Store;

class ActivationCache {
public:
    // Nothing is read yet.
    ActivationCache(Store& store, PathStyle style);

    // The activation kept for `spec` (with `msvc`: with a Visual Studio
    // toolset) while its inputs read the same in `env`.
    std::optional<Activation> find(const std::string& spec, const EnvReader& env, bool msvc = false);

    // How planning reads its inputs: the environment through the reader it is
    // given, and its detection and host-compiler keys appended to `key`.
    using Planner = std::function<Activation(const EnvReader& env, Stamps& key)>;
    // Plans `spec` with `plan` and keeps the result (best effort: a store that
    // cannot be written keeps nothing). Errors from `plan` pass through.
    Activation plan_and_keep(const std::string& spec, const EnvReader& env, const Planner& plan, bool msvc = false);

    // The records a file keeps.
    static constexpr size_t max_records = 8;

private:
    Store& store_;
    std::filesystem::path file_;
    std::string id_prefix_;             // a record's id is this, then the spec
    bool posix_ = true;
    std::optional<std::string> text_;  // the file, read once ("" when there is none)

    const std::string& file_text();
};

// What an activation enters besides the pair.
struct ActivationOptions {
    // `use --msvc` (or config.toml's msvc = "auto"), Windows: the newest
    // Visual Studio toolset the pair's nvcc accepts (store/msvc), or one
    // line in the notes saying why none.
    bool msvc = false;
};

// The one activation path through the store (core/activation.hpp's
// Activation): spec -> pair (core/pairs over the store's records and pins)
// -> folders (the detection cache) -> host compiler (its cache) -> plan_use.
// Activates what `spec` names (system included) in the environment `env`
// reads; the answer is kept in the store and read back while its inputs
// hold (store/activation_cache.hpp).
Activation plan_activation(Store& store, const Spec& spec, const EnvReader& env, PathStyle style,
                           ActivationOptions opts = {});
// Activates `pair` itself (check's runner: the pair is already chosen).
Activation plan_activation(Store& store, const Pair& pair, const std::string& spec, const EnvReader& env,
                           PathStyle style);

}  // namespace cudaenv
