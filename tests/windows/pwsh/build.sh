#!/usr/bin/env bash
# Builds PowerShell 7 for Windows into <out> for the pwsh tests under Wine
# (tests/windows/msvc_win.py): a self-contained win-x64 publish of pwsh.csproj
# (Microsoft.PowerShell.SDK from NuGet, once), with the modules of the
# PowerShell .NET tool that .ci/deps.sh installs (Utility, Management,
# Security: Out-Default, Get-ChildItem env:, ...). Wine 8 runs its console
# host only with a terminal: the tests start it under `script`.
#   tests/windows/pwsh/build.sh <out dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$1
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/pwsh.csproj" "$here/Program.cs" "$work/"
dotnet publish "$work/pwsh.csproj" -c Release -o "$work/out" -nologo >"$work/publish.log" 2>&1 ||
  { cat "$work/publish.log" >&2; exit 1; }
tool=$(ls -d "$HOME"/.dotnet/tools/.store/powershell/*/powershell/*/tools/net*/any/win/Modules 2>/dev/null | head -1)
[ -n "$tool" ] || { echo "build.sh: no PowerShell .NET tool (dotnet tool install --global PowerShell)" >&2; exit 1; }
mkdir -p "$work/out/Modules"
for m in Microsoft.PowerShell.Utility Microsoft.PowerShell.Management Microsoft.PowerShell.Security; do
  cp -r "$tool/$m" "$work/out/Modules/"
done
rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$work/out" "$out"
