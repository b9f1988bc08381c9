#!/usr/bin/env bash
# Installs what cudaenv needs to build and test on Debian 12 (root or sudo).
# Safe to run again: it installs only what is missing.
set -euo pipefail

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

packages=(
  cmake ninja-build g++ pkg-config ccache
  libcli11-dev libtomlplusplus-dev libspdlog-dev libfmt-dev nlohmann-json3-dev doctest-dev
  libarchive-dev liblzma-dev libcurl4-openssl-dev libssl-dev
  python3 bash zsh fish tmux strace hyperfine xz-utils unzip zip jq
  shellcheck
  libcudart11.0
  g++-mingw-w64-x86-64-posix wine64 dpkg-dev
  lmod python3-jupyter-client python3-ipykernel python3-dotenv
  help2man lintian bash-completion man-db
)
# tests/cluster: a single-node Slurm cluster started by the tests (munged, slurmctld, slurmd; no systemd).
packages+=(slurm-wlm munge)
# tests/containers: Podman with runc, Buildah, root file systems (busybox-static,
# debootstrap) and the CDI reference library with Go to build its validator.
packages+=(podman runc buildah debootstrap busybox-static golang-go
  golang-github-container-orchestrated-devices-container-device-interface-dev)

# libcudart11.0 (the real CUDA 11.8 runtime, for `check` without a GPU) is in
# Debian's non-free component: enable it in a file of its own.
nonfree=/etc/apt/sources.list.d/cudaenv-non-free.sources
# The mirror is the one apt already uses on this machine (cmake/debian-mirror.sh).
if ! grep -rqsE "(^|[[:space:]])non-free([[:space:]]|$)" /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null; then
  mirror="$(bash "$(dirname "$0")/../cmake/debian-mirror.sh")"
  codename="$(. /etc/os-release && echo "$VERSION_CODENAME")"
  sudo_ tee "$nonfree" >/dev/null <<SRC
Types: deb
URIs: $mirror
Suites: $codename $codename-updates
Components: non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  sudo_ apt-get update -qq
  sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Real PowerShell 7 for the pwsh integration tests (a .NET global tool).
if ! command -v pwsh >/dev/null 2>&1 && [ ! -x "$HOME/.dotnet/tools/pwsh" ]; then
  if command -v dotnet >/dev/null 2>&1; then
    echo "deps: installing PowerShell 7.6.10 (dotnet tool)"
    dotnet tool install --global PowerShell --version 7.6.10 >/dev/null
  else
    echo "deps: warning: no dotnet SDK; the pwsh tests will be skipped" >&2
  fi
fi

# Real NVIDIA binaries for tests/gpu (cuobjdump is the oracle of `cudaenv
# inspect`): Debian 12 non-free's CUDA 11.8 toolkit and libraries, fetched
# (about 430 MB, once) and unpacked by tests/gpu/nvidia_debs.sh, which names them.
bash "$(dirname "$0")/../tests/gpu/nvidia_debs.sh" >/dev/null ||
  echo "deps: warning: could not fetch Debian's NVIDIA packages; tests/gpu skips its oracle" >&2

# Environment Modules for tests/modules: Debian's package conflicts with lmod,
# so the .deb is only downloaded here; the test unpacks it with dpkg -x.
em_cache="${XDG_CACHE_HOME:-$HOME/.cache}/cudaenv-ci"
if ! ls "$em_cache"/environment-modules_*.deb >/dev/null 2>&1; then
  echo "deps: downloading environment-modules (.deb only, not installed)"
  mkdir -p "$em_cache"
  (cd "$em_cache" && apt-get download environment-modules >/dev/null 2>&1) ||
    echo "deps: warning: could not download environment-modules; tests/modules will fetch it" >&2
fi

# PowerShell 7 for Windows, for the pwsh session tests of the windows-cross
# build under Wine (tests/windows/msvc_win.py): published from NuGet once.
pwsh_win="${XDG_CACHE_HOME:-$HOME/.cache}/cudaenv-ci/pwsh-win-7.6.9"
if [ ! -f "$pwsh_win/pwsh.exe" ] && command -v dotnet >/dev/null 2>&1; then
  echo "deps: building PowerShell 7.6.9 for Windows (win-x64, for the Wine tests)"
  bash "$(dirname "$0")/../tests/windows/pwsh/build.sh" "$pwsh_win" ||
    echo "deps: warning: could not build Windows PowerShell; windows_msvc_pwsh is not registered" >&2
fi
