#include "install/sha256.hpp"

#include <openssl/evp.h>

#include <cstdio>
#include <fstream>
#include <vector>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
    if (!ctx_ || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1) throw Error("OpenSSL: cannot start SHA-256");
}

Sha256::~Sha256() { EVP_MD_CTX_free(ctx_); }

void Sha256::update(const void* data, size_t size) {
    if (size && EVP_DigestUpdate(ctx_, data, size) != 1) throw Error("OpenSSL: SHA-256 update failed");
}

std::string Sha256::hex_digest() {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(ctx_, md, &len) != 1) throw Error("OpenSSL: SHA-256 final failed");
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < len; ++i) {
        out += digits[md[i] >> 4];
        out += digits[md[i] & 15];
    }
    return out;
}

std::string sha256_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw Error("cannot read '" + fsx::to_utf8(p) + "'");
    Sha256 h;
    std::vector<char> buf(1 << 20);
    while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())) || in.gcount() > 0)
        h.update(buf.data(), static_cast<size_t>(in.gcount()));
    if (in.bad()) throw Error("cannot read '" + fsx::to_utf8(p) + "'");
    return h.hex_digest();
}

}  // namespace cudaenv::install
