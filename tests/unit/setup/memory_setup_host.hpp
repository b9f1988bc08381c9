#pragma once
// An in-memory SetupHost for the unit tests: files (with links, hard links
// and read-only flags), folders, and the Windows user registry values.
#include <map>
#include <set>

#include "setup/setup_host.hpp"
#include "util/error.hpp"

namespace testsupport {

namespace fs = std::filesystem;

class MemorySetupHost final : public cudaenv::SetupHost {
public:
    struct Node {
        std::shared_ptr<std::string> data;  // shared between hard links
        bool read_only = false;
        std::optional<fs::path> link;       // a symbolic link to this path
    };
    std::map<fs::path, Node> files;
    std::set<fs::path> dirs;
    std::map<std::string, cudaenv::platform::UserEnvValue> env;
    std::optional<cudaenv::platform::UserEnvValue> autorun;
    bool cmd_key = true;
    int broadcasts = 0;
    std::set<fs::path> unwritable_dirs;  // creating a file in them fails

    void put(const fs::path& p, std::string text) {
        files[p] = Node{std::make_shared<std::string>(std::move(text)), false, std::nullopt};
        for (auto d = p.parent_path(); !d.empty() && d != d.parent_path(); d = d.parent_path()) dirs.insert(d);
    }
    void symlink(const fs::path& p, const fs::path& to) { files[p] = Node{nullptr, false, to}; }
    void hardlink(const fs::path& p, const fs::path& existing) { files[p] = files.at(existing); }
    std::string text(const fs::path& p) const { return *files.at(p).data; }

    FileState inspect(const fs::path& path) override {
        FileState st;
        auto it = files.find(path);
        if (it == files.end()) {
            if (dirs.count(path)) st.kind = Kind::other;
            return st;
        }
        st.target = path;
        for (int i = 0; i < 8 && it != files.end() && it->second.link; ++i) {
            st.target = *it->second.link;
            it = files.find(st.target);
        }
        if (it == files.end()) {
            st.kind = Kind::dangling_link;
            return st;
        }
        st.kind = Kind::file;
        st.read_only = it->second.read_only;
        return st;
    }
    std::string read(const fs::path& file) override { return *files.at(file).data; }
    void rewrite(const fs::path& file, std::string_view text) override {
        auto& n = files.at(file);
        if (n.read_only) throw cudaenv::Error("read-only");
        *n.data = std::string(text);  // in place: hard links see it
        ++writes;
    }
    void create(const fs::path& file, std::string_view text) override {
        if (!dirs.count(file.parent_path()) || unwritable_dirs.count(file.parent_path()))
            throw cudaenv::Error("cannot write " + file.string());
        files[file] = Node{std::make_shared<std::string>(text), false, std::nullopt};
        ++writes;
    }
    void remove_file(const fs::path& file) override {
        files.erase(file);
        ++writes;
    }
    void copy_file(const fs::path& from, const fs::path& to) override {
        if (!dirs.count(to.parent_path()) || unwritable_dirs.count(to.parent_path()))
            throw cudaenv::Error("cannot write " + to.string());
        files[to] = Node{std::make_shared<std::string>(*files.at(from).data), false, std::nullopt};
    }
    bool dir_exists(const fs::path& dir) override { return dirs.count(dir) > 0; }
    void create_dir(const fs::path& dir) override {
        if (unwritable_dirs.count(dir.parent_path())) throw cudaenv::Error("cannot create " + dir.string());
        dirs.insert(dir);
    }
    void remove_dir_if_empty(const fs::path& dir) override {
        for (const auto& [p, n] : files)
            if (p.parent_path() == dir) return;
        for (const auto& d : dirs)
            if (d.parent_path() == dir && d != dir) return;
        dirs.erase(dir);
    }
    std::string show(const fs::path& p) override { return p.string(); }

    std::optional<cudaenv::platform::UserEnvValue> user_env_read(const std::string& name) override {
        auto it = env.find(name);
        if (it == env.end()) return std::nullopt;
        return it->second;
    }
    void user_env_write(const std::string& name, const cudaenv::platform::UserEnvValue& v) override { env[name] = v; }
    void user_env_remove(const std::string& name) override { env.erase(name); }
    void broadcast_environment_change() override { ++broadcasts; }
    std::optional<cudaenv::platform::UserEnvValue> autorun_read() override { return autorun; }
    void autorun_write(const std::optional<cudaenv::platform::UserEnvValue>& v) override {
        autorun = v;
        if (v) cmd_key = true;
    }
    bool cmd_key_exists() override { return cmd_key; }
    void cmd_key_remove_if_empty() override {
        if (!autorun) cmd_key = false;
    }

    int writes = 0;
};

}  // namespace testsupport
