#pragma once
// What a cluster node knows about itself and the few primitives the shared
// system store's lock needs (see store/excl_lock.hpp): host name, process
// liveness, exclusive creation of a file, and where the system store lives.
#include <filesystem>
#include <optional>
#include <string>

namespace cudaenv::platform {

// This machine's host name ("node042"), never empty ("unknown" at worst).
std::string host_name();
long current_pid();
// False only when no process with this id exists on this machine.
bool process_alive(long pid);

// Creates `file` only if it does not exist (O_CREAT|O_EXCL; CreateFileW
// CREATE_NEW), writes `content`, flushes it to disk. Returns false when the
// file already exists; throws Error on any other failure (errno text kept).
bool create_exclusive(const std::filesystem::path& file, const std::string& content);

// What tells this boot of the machine from the last one: Linux's
// /proc/sys/kernel/random/boot_id, Windows' boot time (to the minute).
// "" when unknown. What is kept per boot (the GPUs) is asked again after a reboot.
std::string boot_id();

// $CUDAENV_SYSTEM_ROOT, else /opt/cudaenv (POSIX) or %ProgramData%\cudaenv (Windows).
std::filesystem::path system_store_root();

}  // namespace cudaenv::platform
