#include "setup/setup_host.hpp"

#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/user_file.hpp"

namespace cudaenv {

namespace {

namespace fs = std::filesystem;

class RealSetupHost final : public SetupHost {
public:
    // What is at a profile path, and the writes: the one writer of files
    // outside the store (util/user_file.hpp), which writes through links and
    // keeps a file's mode, owner and hard links.
    FileState inspect(const fs::path& path) override {
        auto t = fsx::inspect_target(path);
        FileState st;
        st.target = t.path;
        switch (t.kind) {
            case fsx::TargetKind::absent: st.target.clear(); break;
            case fsx::TargetKind::file:
                st.kind = Kind::file;
                st.read_only = t.read_only;
                break;
            case fsx::TargetKind::dangling_link: st.kind = Kind::dangling_link; break;
            default: st.kind = Kind::other;
        }
        return st;
    }

    std::string read(const fs::path& file) override {
        auto text = fsx::read_file(file);
        if (!text) throw Error("cannot read '" + fsx::to_utf8(file) + "'", "check its permissions");
        return *text;
    }

    void rewrite(const fs::path& file, std::string_view text) override { fsx::write_user_file(file, text); }

    void create(const fs::path& file, std::string_view text) override { fsx::write_user_file(file, text); }

    void remove_file(const fs::path& file) override {
        std::error_code ec;
        fs::remove(file, ec);
        if (ec) throw Error("cannot remove '" + fsx::to_utf8(file) + "': " + ec.message());
    }

    void copy_file(const fs::path& from, const fs::path& to) override {
        std::error_code ec;
        fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
        if (ec) throw Error("cannot copy '" + fsx::to_utf8(from) + "' to '" + fsx::to_utf8(to) + "': " + ec.message());
    }

    bool dir_exists(const fs::path& dir) override { return fsx::is_dir(dir); }

    void create_dir(const fs::path& dir) override {
        std::error_code ec;
        fs::create_directory(dir, ec);
        if (ec) throw Error("cannot create folder '" + fsx::to_utf8(dir) + "': " + ec.message());
    }

    void remove_dir_if_empty(const fs::path& dir) override {
        std::error_code ec;
        if (fs::is_empty(dir, ec) && !ec) fs::remove(dir, ec);
    }

    std::string show(const fs::path& p) override {
        return platform::shown_path(p);
    }

    std::optional<platform::UserEnvValue> user_env_read(const std::string& name) override {
        return platform::user_env_read(name);
    }
    void user_env_write(const std::string& name, const platform::UserEnvValue& v) override {
        platform::user_env_write(name, v);
    }
    void user_env_remove(const std::string& name) override { platform::user_env_remove(name); }
    void broadcast_environment_change() override { platform::broadcast_environment_change(); }
    std::optional<platform::UserEnvValue> autorun_read() override { return platform::cmd_autorun_read(); }
    void autorun_write(const std::optional<platform::UserEnvValue>& v) override { platform::cmd_autorun_write(v); }
    bool cmd_key_exists() override { return platform::cmd_processor_key_exists(); }
    void cmd_key_remove_if_empty() override { platform::cmd_processor_key_remove_if_empty(); }
};

}  // namespace

std::unique_ptr<SetupHost> make_real_setup_host() { return std::make_unique<RealSetupHost>(); }

}  // namespace cudaenv
