#pragma once
// argv and an environment as execve(2) takes them: NUL-terminated arrays of
// C strings. Shared by exec_command (platform_posix.cpp) and run_process
// (process_posix.cpp); POSIX builds only.
#include <string>
#include <utility>
#include <vector>

namespace cudaenv::platform {

class ExecArgs {
public:
    // `argv` must outlive this object: its strings are pointed to, not copied.
    ExecArgs(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env) {
        for (const auto& [k, v] : env) {
            env_text_.push_back(k + "=" + v);
            if (k == "PATH") path_ = v;
        }
        for (const auto& a : argv) argv_.push_back(const_cast<char*>(a.c_str()));
        argv_.push_back(nullptr);
        for (auto& s : env_text_) envp_.push_back(s.data());
        envp_.push_back(nullptr);
    }
    ExecArgs(const ExecArgs&) = delete;
    ExecArgs& operator=(const ExecArgs&) = delete;

    char* const* argv() const { return argv_.data(); }
    char* const* envp() const { return envp_.data(); }
    // The PATH the environment sets ("" when it sets none): where argv[0] is looked for.
    const std::string& path() const { return path_; }

private:
    std::vector<std::string> env_text_;
    std::vector<char*> argv_, envp_;
    std::string path_;
};

}  // namespace cudaenv::platform
