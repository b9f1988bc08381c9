#include "install/fetch.hpp"

#include <algorithm>
#include <thread>

#include "install/http.hpp"
#include "install/progress.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

void ReadyQueue::push(size_t i) {
    std::lock_guard lock(m_);
    ready_.push_back(i);
    cv_.notify_one();
}

void ReadyQueue::close() {
    std::lock_guard lock(m_);
    closed_ = true;
    cv_.notify_all();
}

void ReadyQueue::fail(std::exception_ptr e) {
    std::lock_guard lock(m_);
    if (!first_) first_ = std::move(e);
    stop_ = true;
    cv_.notify_all();
}

bool ReadyQueue::pop(size_t& i) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return stop_ || !ready_.empty() || closed_; });
    if (stop_ || ready_.empty()) return false;
    auto largest = std::max_element(ready_.begin(), ready_.end(),
                                    [&](size_t x, size_t y) { return jobs_[x].size < jobs_[y].size; });
    i = *largest;
    ready_.erase(largest);
    return true;
}

namespace {

fs::path existing_ancestor(fs::path p) {
    while (!p.empty() && !fsx::exists(p) && p.has_parent_path() && p.parent_path() != p) p = p.parent_path();
    return p;
}

// Before the first byte: no archive above the ceiling, and room for what is
// still to come (.part files count as far as they got).
void check_downloads(const std::vector<FetchJob>& jobs) {
    const auto limits = http_limits();
    uint64_t needed = 0;
    fs::path where;
    for (const auto& j : jobs) {
        if (j.url.empty()) continue;
        if (j.size > limits.max_archive)
            throw Error("'" + fsx::to_utf8(j.file.filename()) + "' would be " +
                            str::human_bytes(static_cast<double>(j.size)) + " (" + std::to_string(j.size) +
                            " bytes), above the ceiling of " + str::human_bytes(static_cast<double>(limits.max_archive)) +
                            " for one archive; nothing was downloaded",
                        "NVIDIA's largest archive is about 3 GB: a manifest or lock that says more is damaged or hostile. "
                        "CUDAENV_MAX_ARCHIVE_SIZE raises the ceiling");
        std::error_code ec;
        auto part = j.file;
        part += ".part";
        uint64_t have = 0;
        if (fsx::is_file(j.file) && fs::file_size(j.file, ec) == j.size) have = j.size;
        else if (fsx::is_file(part)) have = std::min(j.size, static_cast<uint64_t>(fs::file_size(part, ec)));
        needed += j.size - (ec ? 0 : have);
        if (where.empty()) where = existing_ancestor(j.file.parent_path());
    }
    if (needed == 0) return;
    std::error_code ec;
    auto space = fs::space(where, ec);
    if (!ec && space.available < needed)
        throw Error("the downloads need " + str::human_bytes(static_cast<double>(needed)) + " and " + fsx::to_utf8(where) +
                        " has " + str::human_bytes(static_cast<double>(space.available)) + " free; nothing was downloaded",
                    "free some space there (an install downloads into the store's cache/: CUDAENV_ROOT moves the store)");
}

int worker_count(const FetchOptions& opts, size_t jobs, bool downloads) {
    int n = opts.workers > 0 ? opts.workers : static_cast<int>(std::thread::hardware_concurrency());
    // While downloads run, a second worker unpacks one archive while another finishes.
    n = std::max(n, downloads ? 2 : 1);
    return std::max(1, std::min(n, static_cast<int>(jobs)));
}

}  // namespace

void fetch_all(const std::vector<FetchJob>& jobs, const std::function<void(size_t, const std::atomic<bool>&)>& work,
               const FetchOptions& opts, ProgressBoard& board, const std::vector<size_t>& board_items) {
    ReadyQueue queue(jobs);
    std::vector<Download> downloads;
    std::vector<size_t> job_of;  // download index -> job index
    // Downloads start largest first as well, so the biggest archive is among
    // the first complete.
    std::vector<size_t> order(jobs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return jobs[a].size > jobs[b].size; });
    for (size_t i : order) {
        if (jobs[i].url.empty()) {
            queue.push(i);
            continue;
        }
        downloads.push_back({jobs[i].url, jobs[i].file, jobs[i].size});
        job_of.push_back(i);
    }
    check_downloads(jobs);
    std::vector<std::thread> threads;
    for (int w = worker_count(opts, jobs.size(), !downloads.empty()); w > 0; --w)
        threads.emplace_back([&] {
            size_t i = 0;
            while (queue.pop(i)) {
                try {
                    work(i, queue.stop());
                } catch (...) {
                    queue.fail(std::current_exception());
                }
            }
        });
    try {
        DownloadCallbacks cb;
        cb.progress = [&](size_t d, uint64_t bytes) { board.downloading(board_items.at(job_of[d]), bytes); };
        cb.complete = [&](size_t d) { queue.push(job_of[d]); };
        download_all(downloads, opts.connections, cb, queue.stop());
    } catch (...) {
        queue.fail(std::current_exception());
    }
    queue.close();
    for (auto& t : threads) t.join();
    if (auto e = queue.first()) std::rethrow_exception(e);
}

int choose_connections(std::optional<int> flag) {
    std::string from = "--connections";
    if (!flag) {
        auto env = platform::get_env("CUDAENV_CONNECTIONS");
        if (!env || env->empty()) return 4;
        from = "CUDAENV_CONNECTIONS";
        int n = -1;
        flag = str::parse_int(*env, n) ? n : -1;
    }
    if (*flag < 1 || *flag > 64)
        throw UsageError(from + " must be a number from 1 to 64", "the default is 4 downloads at once");
    return *flag;
}

}  // namespace cudaenv::install
