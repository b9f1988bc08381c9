#include "nvidia/compat.hpp"

#include <algorithm>
#include <toml++/toml.h>

#include "util/embedded.hpp"
#include "util/error.hpp"
#include "util/strings.hpp"

namespace cudaenv::nvidia {

namespace {

bool within(const Version& v, const Version& bound, int sign) {
    // Compare v on as many fields as `bound` has.
    auto p = v.prefix(bound.parts().size());
    // A version with fewer fields than the bound (12 vs 12.0) pads with zeros.
    std::vector<int> parts = p.parts();
    while (parts.size() < bound.parts().size()) parts.push_back(0);
    Version padded(parts);
    return sign < 0 ? padded >= bound : padded <= bound;
}

std::string get_str(const toml::table& t, const char* key) {
    if (auto v = t.get_as<std::string>(key)) return v->get();
    return {};
}

Version get_version(const toml::table& t, const char* key, const std::string& where) {
    auto s = get_str(t, key);
    if (s.empty()) return {};
    auto v = Version::parse(s);
    if (!v) throw Error("compat table: bad version '" + s + "' in " + where);
    return *v;
}

VersionRange get_range(const std::string& s, const std::string& where) {
    auto r = VersionRange::parse(s);
    if (!r) throw Error("compat table: bad range '" + s + "' in " + where);
    return *r;
}

toml::table parse_toml(const std::string& text) {
    try {
        return toml::parse(text);
    } catch (const toml::parse_error& e) {
        throw Error(std::string("compat table: ") + std::string(e.description()));
    }
}

std::string_view embedded_table(const char* name) {
    auto data = embedded::find(name);
    if (!data) throw Error(std::string("the compatibility table ") + name + " is missing from this build");
    return *data;
}

}  // namespace

bool VersionRange::contains(const Version& v) const { return within(v, lo, -1) && within(v, hi, 1); }

std::string VersionRange::str() const { return lo == hi ? lo.str() : lo.str() + "-" + hi.str(); }

std::optional<VersionRange> VersionRange::parse(const std::string& text) {
    auto dash = text.find('-');
    auto lo = Version::parse(str::trim(text.substr(0, dash)));
    auto hi = dash == std::string::npos ? lo : Version::parse(str::trim(text.substr(dash + 1)));
    if (!lo || !hi) return std::nullopt;
    return VersionRange{*lo, *hi};
}

int compare_driver(const std::string& a, const std::string& b) {
    auto va = Version::parse(a), vb = Version::parse(b);
    if (!va || !vb) return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
    // Field by field with missing fields as zero ("580" == "580.0").
    auto pa = va->parts(), pb = vb->parts();
    pa.resize(std::max(pa.size(), pb.size()), 0);
    pb.resize(pa.size(), 0);
    return pa < pb ? -1 : (pa == pb ? 0 : 1);
}

Compat Compat::parse(const std::string& text) {
    auto t = parse_toml(text);
    Compat c;
    if (auto* cuda = t.get_as<toml::table>("cuda")) {
        for (const auto& [key, node] : *cuda) {
            auto* row = node.as_table();
            int major = 0;
            if (!row || !str::parse_int(key.str(), major)) throw Error("compat table: bad [cuda." + std::string(key.str()) + "]");
            CudaFamily f;
            f.major = major;
            f.cc_min = get_version(*row, "cc_min", "cuda." + std::string(key.str()));
            f.cc_unconfirmed = row->get_as<bool>("cc_unconfirmed") && row->get_as<bool>("cc_unconfirmed")->get();
            f.source = get_str(*row, "source");
            c.families_.push_back(f);
        }
    }
    if (auto* arr = t.get_as<toml::array>("cudnn")) {
        for (const auto& node : *arr) {
            const auto* row = node.as_table();
            if (!row) continue;
            CudnnRow r;
            r.versions = get_range(get_str(*row, "versions"), "cudnn");
            if (auto* cl = row->get_as<toml::array>("cuda"))
                for (const auto& e : *cl)
                    if (auto s = e.value<std::string>()) r.cuda.push_back(get_range(*s, "cudnn " + r.versions.str()));
            if (auto cc = get_str(*row, "cc"); !cc.empty()) r.cc = get_range(cc, "cudnn " + r.versions.str());
            if (auto* with = row->get_as<toml::array>("cc_with"))
                for (const auto& e : *with)
                    if (const auto* w = e.as_table())
                        r.cc_with.emplace_back(get_range(get_str(*w, "cuda"), "cudnn " + r.versions.str() + " cc_with"),
                                               get_range(get_str(*w, "cc"), "cudnn " + r.versions.str() + " cc_with"));
            r.unconfirmed = row->get_as<bool>("unconfirmed") && row->get_as<bool>("unconfirmed")->get();
            r.confirm = get_str(*row, "confirm");
            r.source = get_str(*row, "source");
            c.cudnn_.push_back(r);
        }
        std::sort(c.cudnn_.begin(), c.cudnn_.end(),
                  [](const CudnnRow& a, const CudnnRow& b) { return a.versions.lo < b.versions.lo; });
    }
    if (auto* arr = t.get_as<toml::array>("framework")) {
        for (const auto& node : *arr) {
            const auto* row = node.as_table();
            if (!row) continue;
            FrameworkPin p;
            p.name = get_str(*row, "name");
            p.version = get_str(*row, "version");
            p.build = get_str(*row, "build");
            p.platform = get_str(*row, "platform");
            p.note = get_str(*row, "note");
            p.source = get_str(*row, "source");
            p.cuda = get_version(*row, "cuda", "framework " + p.name);
            p.cudnn = get_version(*row, "cudnn", "framework " + p.name);
            p.unconfirmed = row->get_as<bool>("unconfirmed") && row->get_as<bool>("unconfirmed")->get();
            c.frameworks_.push_back(p);
        }
    }
    return c;
}

GpuArchs GpuArchs::parse(const std::string& text) {
    auto t = parse_toml(text);
    GpuArchs g;
    auto flag = [](const toml::table& row, const char* key) { return row.get_as<bool>(key) && row.get_as<bool>(key)->get(); };
    if (auto* arr = t.get_as<toml::array>("cuda_arch"))
        for (const auto& node : *arr) {
            const auto* row = node.as_table();
            if (!row) continue;
            CudaArchRow r;
            r.versions = get_range(get_str(*row, "versions"), "cuda_arch");
            auto sass = get_range(get_str(*row, "sass"), "cuda_arch " + r.versions.str());
            r.sass_lo = sass.lo;
            r.sass_hi = sass.hi;
            r.ptx = get_version(*row, "ptx", "cuda_arch " + r.versions.str());
            r.unconfirmed = flag(*row, "unconfirmed");
            r.source = get_str(*row, "source");
            g.cuda_archs_.push_back(r);
        }
    std::sort(g.cuda_archs_.begin(), g.cuda_archs_.end(),
              [](const CudaArchRow& a, const CudaArchRow& b) { return a.versions.lo < b.versions.lo; });
    if (auto* arr = t.get_as<toml::array>("forward_compat"))
        for (const auto& node : *arr)
            if (const auto* row = node.as_table())
                g.forward_compat_.push_back({get_str(*row, "match"), flag(*row, "supported"), get_str(*row, "source")});
    return g;
}

const GpuArchs& GpuArchs::get() {
    static const GpuArchs g = parse(std::string(embedded_table("gpu_archs.toml")));
    return g;
}

const CudaArchRow* GpuArchs::cuda_archs(const Version& cuda) const {
    const CudaArchRow* best = nullptr;
    for (const auto& r : cuda_archs_)
        if (r.versions.contains(cuda) || within(cuda, r.versions.lo, -1)) best = &r;
    return best;
}

const ForwardCompatRow* GpuArchs::forward_compat(const std::string& gpu_name) const {
    for (const auto& r : forward_compat_)
        if (!r.match.empty() && gpu_name.find(r.match) != std::string::npos) return &r;
    return nullptr;
}

const Compat& Compat::get() {
    static const Compat c = parse(std::string(embedded_table("compat.toml")));
    return c;
}

const CudaFamily* Compat::cuda_family(int major) const {
    for (const auto& f : families_)
        if (f.major == major) return &f;
    return nullptr;
}

std::optional<VersionRange> CudnnRow::cc_for(const std::optional<Version>& release) const {
    if (!cc) return std::nullopt;
    if (release) {
        for (const auto& [range, with] : cc_with)
            if (range.contains(*release)) return with;
        return cc;
    }
    auto widest = *cc;
    for (const auto& [range, with] : cc_with) {
        if (with.lo < widest.lo) widest.lo = with.lo;
        if (widest.hi < with.hi) widest.hi = with.hi;
    }
    return widest;
}

Drivers Drivers::parse(const std::string& text) {
    auto t = parse_toml(text);
    Drivers d;
    if (auto* arr = t.get_as<toml::array>("floor"))
        for (const auto& node : *arr)
            if (const auto* row = node.as_table()) {
                DriverFloor f;
                auto major = row->get_as<int64_t>("major");
                if (!major || major->get() < 1 || major->get() > 99) throw Error("drivers table: a [[floor]] without a major");
                f.major = static_cast<int>(major->get());
                f.on_linux = get_str(*row, "linux");
                f.on_windows = get_str(*row, "windows");
                f.source = get_str(*row, "source");
                d.floors_.push_back(f);
            }
    if (auto* arr = t.get_as<toml::array>("release"))
        for (const auto& node : *arr)
            if (const auto* row = node.as_table()) {
                DriverRelease r;
                r.cuda = get_version(*row, "cuda", "release");
                if (r.cuda.empty()) throw Error("drivers table: a [[release]] without its CUDA release");
                r.on_linux = get_str(*row, "linux");
                r.on_windows = get_str(*row, "windows");
                r.source = get_str(*row, "source");
                d.releases_.push_back(r);
            }
    std::sort(d.releases_.begin(), d.releases_.end(),
              [](const DriverRelease& a, const DriverRelease& b) { return a.cuda < b.cuda; });
    return d;
}

const Drivers& Drivers::get() {
    static const Drivers d = parse(std::string(embedded_table("drivers.toml")));
    return d;
}

const DriverFloor* Drivers::floor(int major) const {
    for (const auto& f : floors_)
        if (f.major == major) return &f;
    return nullptr;
}

const DriverRelease* Drivers::release(const Version& cuda) const {
    // 12.6 is 12.6.0 here: a release named by its major.minor is its GA.
    auto parts = cuda.parts();
    parts.resize(std::max<size_t>(parts.size(), 3), 0);
    const Version full(parts);
    const DriverRelease* best = nullptr;
    for (const auto& r : releases_)
        if (r.cuda.prefix(2) == full.prefix(2) && r.cuda <= full) best = &r;
    return best;
}

CudnnSupport Compat::cudnn(const Version& v) const {
    CudnnSupport s;
    for (const auto& row : cudnn_) {
        if (row.versions.contains(v)) return {&row, true};
        // The nearest older row of the same major stands in, unconfirmed.
        if (row.versions.hi.major() == v.major() && within(v, row.versions.hi, -1)) s = {&row, false};
    }
    return s;
}

std::string Compat::pair_conflict(const Version& cuda, const Version& cudnn, bool* unconfirmed) const {
    auto s = this->cudnn(cudnn);
    if (unconfirmed) *unconfirmed = s.row && !s.confirmed();
    if (!s.row || s.row->cuda.empty()) return {};
    for (const auto& r : s.row->cuda)
        if (r.contains(cuda)) return {};
    // Only a confirmed row may rule out a minor version; a neighbouring row
    // still tells the CUDA majors apart.
    std::vector<std::string> list;
    bool major_listed = false;
    for (const auto& r : s.row->cuda) {
        list.push_back(r.str());
        major_listed = major_listed || r.lo.major() == cuda.major() || r.hi.major() == cuda.major();
    }
    if (!s.exact && major_listed) return {};
    return "cuDNN " + cudnn.str() + " supports CUDA " + str::join(list, ", ") + ", not CUDA " + cuda.prefix(2).str() +
           (s.exact ? "" : " (judged from cuDNN " + s.row->versions.str() + "'s support matrix; unconfirmed for " +
                               cudnn.prefix(2).str() + ")") +
           unconfirmed_note(s) + " [" + s.row->source + "]";
}

std::string unconfirmed_note(const CudnnSupport& s) {
    if (!s.row || s.confirmed()) return {};
    const std::string what = s.exact ? "cuDNN " + s.row->versions.str() + "'s row" : "this release";
    if (!s.row->confirm.empty()) return " (" + what + " is unconfirmed: " + s.row->confirm + " would confirm it)";
    return s.exact ? " (" + what + " is unconfirmed)" : " (its own support matrix would confirm it)";
}

}  // namespace cudaenv::nvidia
