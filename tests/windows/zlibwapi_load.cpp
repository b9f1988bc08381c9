// Loads the zlibwapi.dll built for cuDNN 8.3-8.9 (zlibwapi/) the way cuDNN
// does, by name from a folder, and round-trips data through the functions
// zlib exports. usage: zlibwapi_load <folder with zlibwapi.dll>
#include <windows.h>

#include <cstdio>
#include <cstring>
#include <string>

using Compress = int (*)(unsigned char*, unsigned long*, const unsigned char*, unsigned long);
using Uncompress = int (*)(unsigned char*, unsigned long*, const unsigned char*, unsigned long);
using ZlibVersion = const char* (*)();

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    std::string dll = std::string(argv[1]) + "\\zlibwapi.dll";
    HMODULE h = LoadLibraryExA(dll.c_str(), nullptr, LOAD_WITH_ALTERED_SEARCH_PATH);
    if (!h) {
        std::printf("FAIL: cannot load %s (error %lu)\n", dll.c_str(), GetLastError());
        return 1;
    }
    auto compress = reinterpret_cast<Compress>(reinterpret_cast<void*>(GetProcAddress(h, "compress")));
    auto uncompress = reinterpret_cast<Uncompress>(reinterpret_cast<void*>(GetProcAddress(h, "uncompress")));
    auto version = reinterpret_cast<ZlibVersion>(reinterpret_cast<void*>(GetProcAddress(h, "zlibVersion")));
    for (const char* name : {"inflate", "inflateInit_", "inflateInit2_", "inflateEnd", "deflate", "deflateInit_",
                             "deflateInit2_", "deflateEnd", "crc32", "adler32"})
        if (!GetProcAddress(h, name)) {
            std::printf("FAIL: zlibwapi.dll does not export %s\n", name);
            return 1;
        }
    if (!compress || !uncompress || !version) {
        std::printf("FAIL: zlibwapi.dll lacks compress/uncompress/zlibVersion\n");
        return 1;
    }
    const char text[] = "cuDNN 8.9 loads zlibwapi.dll; this is zlib under that name.";
    unsigned char packed[256], unpacked[256];
    unsigned long np = sizeof packed, nu = sizeof unpacked;
    if (compress(packed, &np, reinterpret_cast<const unsigned char*>(text), sizeof text) != 0 ||
        uncompress(unpacked, &nu, packed, np) != 0 || nu != sizeof text || std::memcmp(unpacked, text, nu) != 0) {
        std::printf("FAIL: the round trip through compress/uncompress did not give the data back\n");
        return 1;
    }
    std::printf("PASS: zlibwapi.dll is zlib %s\n", version());
    return 0;
}
