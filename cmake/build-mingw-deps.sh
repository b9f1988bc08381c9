#!/usr/bin/env bash
# Builds the static libraries the mingw-w64 (Windows) cross build links:
# zlib, liblzma (xz-utils), libarchive, libcurl (schannel: Windows' own TLS, so
# no OpenSSL for downloads) and OpenSSL's libcrypto (install hashes with EVP).
# Every source comes from Debian's own source packages (`apt-get source`); none
# of it is committed. The result is cached in a prefix named after a hash of
# this script, so a second run (CI on the same machine) returns at once.
#
# Usage: bash cmake/build-mingw-deps.sh      prints the prefix on stdout
# Env:   CUDAENV_MINGW_DEPS_CACHE            cache folder (~/.cache/cudaenv-mingw-deps)
#        CUDAENV_MINGW_JOBS                  parallel jobs (nproc)
# Needs root (or sudo) only the first time, to add a deb-src entry and run
# `apt-get update`; the header-only libraries (CLI11, toml++, nlohmann-json,
# doctest, spdlog, fmt) are linked from Debian's -dev packages into
# <prefix>/header-only/include so the cross build never sees /usr/include.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
script="$here/$(basename "$0")"
cache="${CUDAENV_MINGW_DEPS_CACHE:-$HOME/.cache/cudaenv-mingw-deps}"
hash="$(sha256sum "$script" | cut -c1-16)"
prefix="$cache/$hash"
jobs="${CUDAENV_MINGW_JOBS:-$(nproc)}"
host=x86_64-w64-mingw32

if [ -f "$prefix/.complete" ]; then
  echo "$prefix"
  exit 0
fi

log() { echo "mingw-deps: $*" >&2; }
# Build output goes to a log beside the prefix; on failure its tail is shown.
logfile="$cache/$hash.log"
mkdir -p "$cache"
run() {
  if ! "$@" >>"$logfile" 2>&1; then
    log "failed: $* (last lines of $logfile:)"
    tail -n 30 "$logfile" >&2
    exit 1
  fi
}
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

for tool in "$host-gcc-posix" "$host-g++-posix" "$host-windres" "$host-ar" cmake ninja make perl dpkg-source; do
  command -v "$tool" >/dev/null || {
    log "missing $tool (apt-get install g++-mingw-w64-x86-64-posix cmake ninja-build make perl dpkg-dev)"
    exit 1
  }
done

# deb-src in a file of its own; debian.sources is never edited. Only the main
# archive (point releases carry the security fixes): this network's mirror of
# debian-security serves no sources.
srcs=/etc/apt/sources.list.d/cudaenv-deb-src.sources
sources=(zlib xz-utils libarchive curl openssl)
if ! apt-cache showsrc zlib 2>/dev/null | grep -q '^Package: zlib'; then
  log "adding $srcs and running apt-get update"
  mirror="$(bash "$here/debian-mirror.sh")"
  codename="$(. /etc/os-release && echo "$VERSION_CODENAME")"
  sudo_ tee "$srcs" >/dev/null <<EOF
# Added by cudaenv's cmake/build-mingw-deps.sh: Debian's source packages, from
# which the mingw-w64 dependencies of the Windows cross build are compiled.
Types: deb-src
URIs: $mirror
Suites: $codename $codename-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  sudo_ apt-get update -qq
fi

# Each step leaves a stamp in the prefix, so an interrupted run resumes where
# it stopped; the work folders of older versions of this script are removed.
work="$cache/$hash.work"
for old in "$cache"/*; do
  case "$old" in "$prefix" | "$work" | "$logfile") ;; *) rm -rf "$old" ;; esac
done
mkdir -p "$work" "$prefix"
cd "$work"
step() { [ ! -f "$prefix/.step-$1" ]; }
done_() { touch "$prefix/.step-$1"; }
if step fetch; then
log "fetching Debian sources: ${sources[*]}"
# --download-only + dpkg-source -x: no dpkg-dev build dependencies needed, and
# Debian's patches are applied exactly as in the Debian build.
# The sandbox user _apt cannot write into a cache under $HOME when run as root.
apt_opts=()
[ "$(id -u)" = 0 ] && apt_opts=(-o APT::Sandbox::User=root)
rm -rf "$work"/*
run apt-get source "${apt_opts[@]}" --download-only -qq "${sources[@]}"
for dsc in *.dsc; do run dpkg-source --no-check -x "$dsc"; done
done_ fetch
fi
srcdir() { find "$work" -maxdepth 1 -type d -name "$1-*" | head -n1; }

export CC="$host-gcc-posix" CXX="$host-g++-posix" AR="$host-ar" RANLIB="$host-ranlib" RC="$host-windres"
toolchain="$here/mingw-w64.cmake"
cmake_dep() {  # cmake_dep <source dir> <build dir> [cache args...]
  local s="$1" b="$2"
  shift 2
  run cmake -S "$s" -B "$b" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCUDAENV_MINGW_NO_EMULATOR=ON \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_ROOT_PATH="$prefix" -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON "$@"
}

t0=$SECONDS
if step zlib; then
  log "zlib"
  # Debian's dfsg tarball drops win32/, so zlib's own CMake build it is.
  cmake_dep "$(srcdir zlib)" "$work/build-zlib"
  run cmake --build "$work/build-zlib" --target zlibstatic -j"$jobs"
  install -D -m644 "$work/build-zlib/libzlibstatic.a" "$prefix/lib/libz.a"
  install -D -m644 -t "$prefix/include" "$(srcdir zlib)/zlib.h" "$work/build-zlib/zconf.h"
  done_ zlib
fi

if step lzma; then
  log "liblzma (xz-utils)"
  x="$(srcdir xz-utils)"
  (cd "$x" && run ./configure --host="$host" --prefix="$prefix" --disable-shared --enable-static \
     --disable-xz --disable-xzdec --disable-lzmadec --disable-lzmainfo --disable-lzma-links \
     --disable-scripts --disable-doc --disable-nls --enable-threads=vista CFLAGS=-O2 &&
   run make -C src/liblzma -j"$jobs" install)
  done_ lzma
fi

if step libarchive; then
  log "libarchive"
  # ZLIB_WINAPI is a run test (try_run): answered here, since nothing may run
  # while cross compiling (zlib is built without WINAPI above).
  cmake_dep "$(srcdir libarchive)" "$work/build-libarchive" \
    -DENABLE_ZLIB=ON -DENABLE_LZMA=ON -DENABLE_BZip2=OFF -DENABLE_ZSTD=OFF -DENABLE_LZ4=OFF -DENABLE_LZO=OFF \
    -DENABLE_LIBB2=OFF -DENABLE_OPENSSL=OFF -DENABLE_MBEDTLS=OFF -DENABLE_NETTLE=OFF -DENABLE_CNG=ON \
    -DENABLE_LIBXML2=OFF -DENABLE_EXPAT=OFF -DENABLE_PCREPOSIX=OFF -DENABLE_PCRE2POSIX=OFF -DENABLE_ICONV=OFF \
    -DENABLE_ACL=OFF -DENABLE_XATTR=OFF -DENABLE_TAR=OFF -DENABLE_CPIO=OFF -DENABLE_CAT=OFF -DENABLE_TEST=OFF \
    -DCMAKE_C_FLAGS=-DLZMA_API_STATIC \
    -DZLIB_LIBRARY="$prefix/lib/libz.a" -DZLIB_INCLUDE_DIR="$prefix/include" \
    -DZLIB_WINAPI=OFF -DZLIB_WINAPI_WITH_LIB="$prefix/lib/libz.a" \
    -DLIBLZMA_LIBRARY="$prefix/lib/liblzma.a" -DLIBLZMA_INCLUDE_DIR="$prefix/include"
  run cmake --build "$work/build-libarchive" --target archive_static -j"$jobs"
  install -D -m644 "$work/build-libarchive/libarchive/libarchive_static.a" "$prefix/lib/libarchive.a"
  install -D -m644 -t "$prefix/include" "$(srcdir libarchive)/libarchive/archive.h" \
    "$(srcdir libarchive)/libarchive/archive_entry.h"
  done_ libarchive
fi

if step curl; then
  log "libcurl (schannel)"
  cmake_dep "$(srcdir curl)" "$work/build-curl" \
    -DCURL_USE_SCHANNEL=ON -DCURL_USE_OPENSSL=OFF -DCURL_USE_LIBSSH2=OFF -DCURL_USE_LIBPSL=OFF \
    -DCURL_BROTLI=OFF -DCURL_ZSTD=OFF -DUSE_NGHTTP2=OFF -DUSE_LIBIDN2=OFF -DUSE_WIN32_IDN=ON \
    -DCURL_ZLIB=ON -DZLIB_LIBRARY="$prefix/lib/libz.a" -DZLIB_INCLUDE_DIR="$prefix/include" \
    -DHTTP_ONLY=ON -DBUILD_CURL_EXE=OFF -DBUILD_TESTING=OFF -DENABLE_MANUAL=OFF -DCURL_DISABLE_LDAP=ON \
    -DCURL_CA_PATH=none -DCURL_CA_BUNDLE=none
  run cmake --build "$work/build-curl" -j"$jobs"
  run cmake --install "$work/build-curl"
  done_ curl
fi

if step openssl; then
  log "OpenSSL libcrypto"
  # cudaenv uses only its digests (EVP SHA-256); leaving out the protocols and
  # legacy ciphers nothing here needs halves the build.
  openssl_off="no-legacy no-des no-rc2 no-rc4 no-rc5 no-idea no-seed no-cast no-bf no-camellia no-aria no-sm2
    no-sm3 no-sm4 no-whirlpool no-md4 no-mdc2 no-rmd160 no-siphash no-ocb no-scrypt no-srp no-psk no-cms no-ts
    no-ocsp no-ct no-comp no-srtp no-gost no-cmp no-dtls no-sctp no-ssl3 no-tls1 no-tls1_1 no-nextprotoneg
    no-rfc3779 no-sock no-async no-autoload-config"
  o="$(srcdir openssl)"
  # Configure prefixes CC, AR, ... with the cross prefix itself: it must not see ours.
  (cd "$o" && run env -u CC -u CXX -u AR -u RANLIB -u RC ./Configure mingw64 --cross-compile-prefix="$host-" CC=gcc-posix CXX=g++-posix \
     --prefix="$prefix" --libdir=lib no-shared no-tests no-module no-engine no-dso \
     no-ui-console $openssl_off &&
   run make -j"$jobs" build_generated && run make -j"$jobs" libcrypto.a)
  install -D -m644 "$o/libcrypto.a" "$prefix/lib/libcrypto.a"
  mkdir -p "$prefix/include/openssl"
  cp "$o"/include/openssl/*.h "$prefix/include/openssl/"
  done_ openssl
fi

log "header-only libraries from Debian's -dev packages"
mkdir -p "$prefix/header-only/include"
for d in CLI toml++ nlohmann doctest spdlog fmt; do
  [ -d "/usr/include/$d" ] || { log "missing /usr/include/$d (run .ci/deps.sh)"; exit 1; }
  ln -sfn "/usr/include/$d" "$prefix/header-only/include/$d"
done

rm -rf "$work"
touch "$prefix/.complete"
log "built in $((SECONDS - t0)) s into $prefix"
echo "$prefix"
