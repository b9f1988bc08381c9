// The static libraries of the windows-cross build (cmake/build-mingw-deps.sh,
// from Debian's sources) work under Windows: a zip (deflate, zlib) and a
// tar.xz (liblzma) written and read back by libarchive, SHA-256 from OpenSSL's
// libcrypto, and libcurl with Windows' own TLS (schannel).
#ifdef _WIN32

#include <archive.h>
#include <archive_entry.h>
#include <curl/curl.h>
#include <doctest/doctest.h>
#include <openssl/evp.h>

#include <string>
#include <vector>

namespace {

// Writes one file into an archive of `format` with `filter`, then reads it back.
std::string round_trip(int (*format)(struct archive*), int (*filter)(struct archive*), const std::string& body) {
    std::vector<char> buf(1 << 16);
    size_t used = 0;
    struct archive* w = archive_write_new();
    REQUIRE(format(w) == ARCHIVE_OK);
    if (filter) REQUIRE(filter(w) == ARCHIVE_OK);
    REQUIRE(archive_write_open_memory(w, buf.data(), buf.size(), &used) == ARCHIVE_OK);
    struct archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, "cudnn-windows-x86_64-8.9.7.29_cuda11-archive/bin/cudnn64_8.dll");
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, static_cast<la_int64_t>(body.size()));
    REQUIRE(archive_write_header(w, e) == ARCHIVE_OK);
    REQUIRE(archive_write_data(w, body.data(), body.size()) == static_cast<la_ssize_t>(body.size()));
    archive_entry_free(e);
    REQUIRE(archive_write_close(w) == ARCHIVE_OK);
    archive_write_free(w);

    struct archive* r = archive_read_new();
    archive_read_support_format_all(r);
    archive_read_support_filter_all(r);
    REQUIRE(archive_read_open_memory(r, buf.data(), used) == ARCHIVE_OK);
    struct archive_entry* re = nullptr;
    REQUIRE(archive_read_next_header(r, &re) == ARCHIVE_OK);
    CHECK(std::string(archive_entry_pathname(re)) == "cudnn-windows-x86_64-8.9.7.29_cuda11-archive/bin/cudnn64_8.dll");
    std::string out(body.size(), '\0');
    CHECK(archive_read_data(r, out.data(), out.size()) == static_cast<la_ssize_t>(body.size()));
    archive_read_free(r);
    return out;
}

}  // namespace

TEST_CASE("windows-cross dependencies: libarchive zip (zlib) and tar.xz (liblzma)") {
    const std::string body(10000, 'x');
    CHECK(round_trip(archive_write_set_format_zip, nullptr, body) == body);
    CHECK(round_trip(archive_write_set_format_pax_restricted, archive_write_add_filter_xz, body) == body);
}

TEST_CASE("windows-cross dependencies: OpenSSL SHA-256") {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    REQUIRE(EVP_Digest("abc", 3, md, &len, EVP_sha256(), nullptr) == 1);
    std::string hex;
    for (unsigned i = 0; i < len; ++i) {
        static const char* digits = "0123456789abcdef";
        hex += digits[md[i] >> 4];
        hex += digits[md[i] & 15];
    }
    CHECK(hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("windows-cross dependencies: libcurl with schannel") {
    REQUIRE(curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK);
    const curl_version_info_data* v = curl_version_info(CURLVERSION_NOW);
    REQUIRE(v);
    CHECK((v->features & CURL_VERSION_SSL) != 0);
    REQUIRE(v->ssl_version);
    CHECK(std::string(v->ssl_version).find("Schannel") != std::string::npos);
    curl_global_cleanup();
}

#endif  // _WIN32
