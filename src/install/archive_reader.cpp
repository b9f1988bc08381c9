#include "install/archive_reader.hpp"

#include <lzma.h>

#include <algorithm>

namespace cudaenv::install {

namespace {
constexpr size_t kBlock = 1 << 20;  // decoded bytes handed to libarchive at a time
}  // namespace

long long ArchiveReader::next() {
    if (stop && *stop) {
        stopped = true;
        return -1;
    }
    if (!in.read(buf.data(), static_cast<std::streamsize>(buf.size())) && in.bad()) {
        io_error = true;
        return -1;
    }
    auto n = static_cast<uint64_t>(in.gcount());
    if (limit && read + n > limit) {
        over_limit = true;
        return -1;
    }
    hash.update(buf.data(), n);
    read += n;
    if (on_read) on_read(read);
    return static_cast<long long>(n);
}

const char* ArchiveReader::failure() const {
    return over_limit ? "larger than expected" : stopped ? "stopped" : "read error";
}

XzFeeder::XzFeeder(ArchiveReader& r) : r_(r) { thread_ = std::thread([this] { run(); }); }

XzFeeder::~XzFeeder() { stop(); }

void XzFeeder::stop() {
    {
        std::lock_guard lock(m_);
        stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

long long XzFeeder::next(const void** out) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return !q_.empty() || done_ || failed_; });
    if (q_.empty()) return failed_ ? -1 : 0;
    if (!current_.empty()) spare_.push_back(std::move(current_));  // libarchive asks for the next block only when done
    current_ = std::move(q_.front());
    q_.pop_front();
    cv_.notify_all();
    *out = current_.data();
    return static_cast<long long>(current_.size());
}

std::string XzFeeder::error() {
    std::lock_guard lock(m_);
    return error_;
}

void XzFeeder::fail(std::string why) {
    std::lock_guard lock(m_);
    failed_ = true;
    error_ = std::move(why);
    cv_.notify_all();
}

std::vector<char> XzFeeder::fresh_block() {
    std::vector<char> b;
    {
        std::lock_guard lock(m_);
        if (!spare_.empty()) {
            b = std::move(spare_.back());
            spare_.pop_back();
        }
    }
    b.resize(kBlock);  // a used block is full-sized already: nothing is written
    return b;
}

bool XzFeeder::push(std::vector<char> block) {
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return q_.size() < 8 || stop_; });
    if (stop_) return false;
    q_.push_back(std::move(block));
    cv_.notify_all();
    return true;
}

void XzFeeder::run() {
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_mt mt{};
    mt.flags = LZMA_CONCATENATED;
    mt.threads = std::max<uint32_t>(1, lzma_cputhreads());
    mt.memlimit_threading = 1ull << 30;
    mt.memlimit_stop = UINT64_MAX;
    if (lzma_stream_decoder_mt(&s, &mt) != LZMA_OK) return fail("cannot start the xz decoder");
    lzma_action action = LZMA_RUN;
    std::vector<char> out = fresh_block();
    s.next_out = reinterpret_cast<uint8_t*>(out.data());
    s.avail_out = out.size();
    for (;;) {
        if (s.avail_in == 0 && action == LZMA_RUN) {
            auto n = r_.next();
            if (n < 0) {
                lzma_end(&s);
                return fail(r_.failure());
            }
            if (n == 0) action = LZMA_FINISH;
            s.next_in = reinterpret_cast<const uint8_t*>(r_.buf.data());
            s.avail_in = static_cast<size_t>(n);
        }
        auto ret = lzma_code(&s, action);
        if (s.avail_out == 0 || ret == LZMA_STREAM_END) {
            out.resize(out.size() - s.avail_out);
            if (!out.empty() && !push(std::move(out))) break;
            out = fresh_block();
            s.next_out = reinterpret_cast<uint8_t*>(out.data());
            s.avail_out = out.size();
        }
        if (ret == LZMA_STREAM_END) break;
        if (ret != LZMA_OK) {
            lzma_end(&s);
            return fail(ret == LZMA_BUF_ERROR ? "truncated xz data"
                        : ret == LZMA_FORMAT_ERROR ? "not xz data"
                                                   : "damaged xz data");
        }
    }
    lzma_end(&s);
    std::lock_guard lock(m_);
    done_ = true;
    cv_.notify_all();
}

}  // namespace cudaenv::install
