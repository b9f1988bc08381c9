#include "core/setup_host.hpp"

#include <fstream>
#include <random>

#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

namespace fs = std::filesystem;

void write_bytes(const fs::path& file, std::string_view text, std::ios::openmode mode) {
    std::ofstream out(file, std::ios::binary | mode);
    if (!out) throw Error("cannot write '" + fsx::to_utf8(file) + "'", "check its permissions and its folder's");
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    if (!out) throw Error("cannot write '" + fsx::to_utf8(file) + "' (disk full?)");
}

class RealSetupHost final : public SetupHost {
public:
    FileState inspect(const fs::path& path) override {
        std::error_code ec;
        FileState st;
        auto link = fs::symlink_status(path, ec);
        if (ec || link.type() == fs::file_type::not_found) return st;
        st.target = path;
        if (link.type() == fs::file_type::symlink) {
            auto target = fs::canonical(path, ec);
            if (ec) {
                st.kind = Kind::dangling_link;
                std::error_code ec2;
                auto to = fs::read_symlink(path, ec2);
                st.target = ec2 ? path : (to.is_absolute() ? to : path.parent_path() / to);
                return st;
            }
            st.target = target;
        }
        auto s = fs::status(st.target, ec);
        if (ec || s.type() != fs::file_type::regular) {
            st.kind = Kind::other;
            return st;
        }
        st.kind = Kind::file;
        st.read_only = (s.permissions() & fs::perms::owner_write) == fs::perms::none;
        return st;
    }

    std::string read(const fs::path& file) override {
        auto text = fsx::read_file(file);
        if (!text) throw Error("cannot read '" + fsx::to_utf8(file) + "'", "check its permissions");
        return *text;
    }

    void rewrite(const fs::path& file, std::string_view text) override {
        std::error_code ec;
        auto perms = fs::status(file, ec).permissions();
        auto links = fs::hard_link_count(file, ec);
        if (ec || links > 1) {
            // Other names share this file (a hard link): write in place, so
            // every name keeps seeing the same file.
            write_bytes(file, text, std::ios::trunc);
            return;
        }
        // Otherwise through a temporary file renamed over it: a crash leaves
        // the old profile or the new one, never half of one.
        std::random_device rd;
        auto tmp = file;
        tmp += ".cudaenv-tmp" + std::to_string(rd() % 1000000);
        try {
            write_bytes(tmp, text, std::ios::trunc);
            fs::permissions(tmp, perms, ec);
            fs::rename(tmp, file, ec);
            if (ec) throw Error("cannot replace '" + fsx::to_utf8(file) + "': " + ec.message());
        } catch (...) {
            std::error_code ignored;
            fs::remove(tmp, ignored);
            throw;
        }
    }

    void create(const fs::path& file, std::string_view text) override { write_bytes(file, text, std::ios::trunc); }

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
        auto s = fsx::to_utf8(p), home = fsx::to_utf8(platform::home_dir());
        if (!platform::is_windows && !home.empty() && home != "/" && s.starts_with(home + "/"))
            return "~" + s.substr(home.size());
        return s;
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
