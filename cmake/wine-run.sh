#!/usr/bin/env bash
# CMAKE_CROSSCOMPILING_EMULATOR of the windows-cross build: runs a Windows
# program under Wine in a Wine prefix of the build's own.
#   wine-run.sh <wine prefix> <program.exe|cmd> [args...]
# The prefix is created once per build folder (wineboot is slow), under a lock
# so that parallel tests do not race to create it. Mono and Gecko are turned
# off: there is no network to fetch them and the tests need neither.
set -euo pipefail
prefix="$1"
shift
wine="${CUDAENV_WINE:-/usr/lib/wine/wine64}"
# CUDAENV_WINE_DLLOVERRIDES: .NET programs (the Windows PowerShell of
# tests/windows/pwsh) need Wine's mscoree, which loads their assemblies.
export WINEPREFIX="$prefix" WINEDEBUG=-all WINEDLLOVERRIDES="${CUDAENV_WINE_DLLOVERRIDES:-mscoree,mshtml=}" WINEARCH=win64
# No X server here: Wine's console programs need none, and without DISPLAY Wine
# does not try to open one.
unset DISPLAY WAYLAND_DISPLAY
if [ ! -f "$prefix/.cudaenv-ready" ]; then
  mkdir -p "$(dirname "$prefix")"
  (
    flock 9
    if [ ! -f "$prefix/.cudaenv-ready" ]; then
      "$wine" wineboot --init >/dev/null 2>&1 || true
      "${wine%/*}/wineserver" -w 2>/dev/null || true
      [ -f "$prefix/system.reg" ] || { echo "wine-run: could not create the Wine prefix $prefix" >&2; exit 1; }
      touch "$prefix/.cudaenv-ready"
    fi
  ) 9>"$prefix.lock"
fi
# Keep one wineserver for the prefix, started by us with no stdio of the
# caller's. Left to Wine, each program starts its own server, which inherits
# the program's stdout/stderr pipes and lingers 3 s after it: a caller reading
# those pipes to the end waits the 3 s on every call, and each call then meets
# a server that is shutting down and saving the registry, or a new one loading
# it again, the race behind a `reg query` that exited 1 with no output. A
# second start while one runs exits at once (status 2); 30 s idle ends it.
# Wine's own services (services.exe, winedevice.exe, ...) start with the
# first program and would inherit its pipes too: start them with a no-op.
if "${wine%/*}/wineserver" -p30 </dev/null >/dev/null 2>&1; then
  "$wine" cmd /d /c exit </dev/null >/dev/null 2>&1 || true
fi
exec "$wine" "$@"
