#pragma once
// Streaming SHA-256 through OpenSSL's EVP interface.
#include <cstddef>
#include <filesystem>
#include <string>

typedef struct evp_md_ctx_st EVP_MD_CTX;

namespace cudaenv::install {

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(const void* data, size_t size);
    // Lower-case hex; the object cannot be updated afterwards.
    std::string hex_digest();

private:
    EVP_MD_CTX* ctx_;
};

// The hash of a whole file; throws cudaenv::Error when it cannot be read.
std::string sha256_file(const std::filesystem::path& p);

}  // namespace cudaenv::install
