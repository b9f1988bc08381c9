#include "core/frameworks.hpp"

#include <algorithm>
#include <cctype>
#include <toml++/toml.h>

#include "platform/platform.hpp"
#include "util/embedded.hpp"
#include "util/error.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

std::string string_of(const toml::table& t, const char* key) {
    auto* v = t.get_as<std::string>(key);
    return v ? v->get() : "";
}

std::vector<std::string> strs(const toml::table& t, const char* key) {
    std::vector<std::string> out;
    if (auto* a = t.get_as<toml::array>(key))
        for (const auto& e : *a)
            if (auto s = e.value<std::string>()) out.push_back(*s);
    return out;
}

Version need_version(const std::string& text, const std::string& what) {
    auto v = Version::parse(text);
    if (!v) throw Error("framework_builds.toml: " + what + ": '" + text + "' is not a version");
    return *v;
}

// Compare on the fields `bound` has: 2.10 covers 2.10.x.
int compare_prefix(const Version& v, const Version& bound) {
    auto p = v.prefix(bound.parts().size());
    return p < bound ? -1 : (bound < p ? 1 : 0);
}

}  // namespace

bool FrameworkBuild::covers(const Version& v) const {
    if (lo && compare_prefix(v, *lo) < 0) return false;
    if (hi && compare_prefix(v, *hi) > 0) return false;
    return true;
}

std::string FrameworkBuild::needs() const {
    std::string s = cuda ? "CUDA " + cuda->str() : "any CUDA";
    if (cudnn) s += " + cuDNN " + cudnn->str();
    return s;
}

std::vector<FrameworkBuild> framework_builds(const std::optional<std::string>& text) {
    std::string data;
    if (text) {
        data = *text;
    } else {
        auto e = embedded::find("framework_builds.toml");
        if (!e) throw Error("the framework table is missing from this build");
        data = std::string(*e);
    }
    toml::table t;
    try {
        t = toml::parse(data);
    } catch (const toml::parse_error& e) {
        throw Error(std::string("framework_builds.toml: ") + std::string(e.description()));
    }
    std::vector<FrameworkBuild> out;
    auto* arr = t.get_as<toml::array>("framework_build");
    if (!arr) return out;
    size_t i = 0;
    for (const auto& node : *arr) {
        ++i;
        const auto* row = node.as_table();
        const std::string where = "framework_build row " + std::to_string(i);
        if (!row) throw Error("framework_builds.toml: " + where + " is not a table");
        FrameworkBuild b;
        b.name = string_of(*row, "name");
        if (b.name.empty()) throw Error("framework_builds.toml: " + where + " has no name");
        if (auto r = string_of(*row, "versions"); !r.empty()) {
            auto dash = r.find('-');
            b.lo = need_version(r.substr(0, dash), where);
            b.hi = dash == std::string::npos ? *b.lo : need_version(r.substr(dash + 1), where);
        }
        b.variant = string_of(*row, "variant");
        b.os = strs(*row, "os");
        b.no_gpu_on = strs(*row, "no_gpu_on");
        b.no_gpu_hint = string_of(*row, "no_gpu_hint");
        if (auto c = string_of(*row, "cuda"); !c.empty()) b.cuda = need_version(c, where);
        if (auto c = string_of(*row, "cudnn"); !c.empty()) b.cudnn = need_version(c, where);
        b.loads = string_of(*row, "loads");
        b.source = string_of(*row, "source");
        if (b.source.empty()) throw Error("framework_builds.toml: " + where + " (" + b.name + ") cites no source");
        if (!b.os.empty() && !b.cuda) throw Error("framework_builds.toml: " + where + " (" + b.name + ") has a GPU build but no cuda");
        for (const auto& o : b.os)
            if (o != "linux" && o != "windows") throw Error("framework_builds.toml: " + where + ": unknown os '" + o + "'");
        if (!b.os.empty() && b.loads != "search-path" && b.loads != "wheels" && b.loads != "torch-lib" && b.loads != "cuda-path")
            throw Error("framework_builds.toml: " + where + ": unknown loads '" + b.loads + "'");
        auto* u = row->get_as<bool>("unconfirmed");
        b.unconfirmed = u && u->get();
        out.push_back(std::move(b));
    }
    return out;
}

FrameworkRequest parse_framework_request(const std::string& text) {
    auto eq = text.find("==");
    if (eq == std::string::npos || eq == 0)
        throw UsageError("--for wants <framework>==<version>, got '" + str::visible(text) + "'",
                         "e.g. --for tensorflow==2.10");
    FrameworkRequest r;
    r.name = text.substr(0, eq);
    std::transform(r.name.begin(), r.name.end(), r.name.begin(), [](unsigned char c) { return c == '_' ? '-' : std::tolower(c); });
    r.version_text = text.substr(eq + 2);
    auto plus = r.version_text.find('+');
    auto numeric = r.version_text.substr(0, plus);
    if (plus != std::string::npos) r.variant = r.version_text.substr(plus + 1);
    auto v = Version::parse(numeric);
    if (!v) throw UsageError("'" + str::visible(r.version_text) + "' is not a version", "e.g. --for tensorflow==2.10");
    r.version = *v;
    return r;
}

const FrameworkBuild& framework_build_for(const std::vector<FrameworkBuild>& rows, const FrameworkRequest& req,
                                          const std::string& os) {
    std::vector<std::string> names;
    for (const auto& b : rows)
        if (std::find(names.begin(), names.end(), b.name) == names.end()) names.push_back(b.name);
    if (std::find(names.begin(), names.end(), req.name) == names.end()) {
        std::string list;
        for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
        throw Error("no compatibility data for the framework '" + str::visible(req.name) + "'", "known: " + list);
    }
    const std::string shown = req.name + " " + str::visible(req.version_text);
    for (const auto& b : rows) {
        if (b.name != req.name || !b.covers(req.version)) continue;
        if (std::find(b.no_gpu_on.begin(), b.no_gpu_on.end(), os) != b.no_gpu_on.end())
            throw Error(shown + " has no GPU build for " + (os == "windows" ? "native Windows" : os), b.no_gpu_hint);
    }
    if (req.name == "torch") {
        // The builds of this release (from the data): only those are named.
        std::vector<const FrameworkBuild*> builds;
        for (const auto& b : rows)
            if (b.name == "torch" && !b.variant.empty() && b.covers(req.version) &&
                std::find(b.os.begin(), b.os.end(), os) != b.os.end())
                builds.push_back(&b);
        std::string variants;
        for (const auto* b : builds) variants += (variants.empty() ? "" : ", ") + b->variant;
        for (const auto* b : builds)
            if (b->variant == req.variant || (req.variant.empty() && builds.size() == 1)) return *b;
        if (!builds.empty() && req.variant.empty())
            throw UsageError("torch " + str::visible(req.version_text) +
                                 " wheels differ by CUDA build: name it, e.g. --for torch==" +
                                 str::visible(req.version_text) + "+" + builds.back()->variant,
                             "its builds: " + variants + " (the tag after '+' in torch.__version__)");
        if (!builds.empty())
            throw Error("torch " + str::visible(req.version_text.substr(0, req.version_text.find('+'))) +
                            " has no build '+" + str::visible(req.variant) + "' on " + os,
                        "its builds: " + variants);
    }
    for (const auto& b : rows)
        if (b.name == req.name && b.covers(req.version) && std::find(b.os.begin(), b.os.end(), os) != b.os.end())
            return b;
    std::string known;
    for (const auto& b : rows)
        if (b.name == req.name && b.lo && std::find(b.os.begin(), b.os.end(), os) != b.os.end())
            known += (known.empty() ? "" : ", ") + b.lo->str() + (b.hi && b.hi->str() != b.lo->str() ? "-" + b.hi->str() : "");
    throw Error("no compatibility data for " + shown + " on " + os, known.empty() ? "" : "known versions: " + known);
}

std::optional<PairChoice> choose_pair(const FrameworkBuild& build, const std::vector<Pair>& pairs) {
    std::optional<PairChoice> best;
    int best_score = -1;
    for (const auto& p : pairs) {  // newest first: the first of equal scores wins
        int score = 0;
        if (build.cuda) {
            if (p.toolkit.version.major() != build.cuda->major()) continue;
            if (build.cuda->parts().size() < 2 || p.toolkit.version.minor() == build.cuda->minor()) score += 20;
            else if (p.toolkit.version.minor() < build.cuda->minor()) continue;  // older than it was built with
        }
        if (build.cudnn) {
            if (!p.cudnn || p.cudnn->version.major() != build.cudnn->major()) continue;
            if (build.cudnn->parts().size() < 2 || p.cudnn->version.minor() == build.cudnn->minor()) score += 10;
            else if (p.cudnn->version.minor() < build.cudnn->minor()) continue;
        }
        if (score > best_score) {
            best_score = score;
            std::string why = "built with " + build.needs() + "; ";
            if (score == 30 || (score == 20 && !build.cudnn))
                why += p.spec() + " has the same versions";
            else
                why += p.spec() + " has the same majors with newer minors (CUDA " + std::to_string(p.toolkit.version.major()) +
                       ".x keeps minor-version compatibility" + (build.cudnn ? ", cuDNN keeps its ABI within a major" : "") + ")";
            best = PairChoice{p, why};
        }
    }
    return best;
}

std::string host_os_name() { return platform::os_name(platform::host_os); }

}  // namespace cudaenv
