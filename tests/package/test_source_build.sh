#!/usr/bin/env bash
# README's "From source" steps, exactly as README.md writes them (read from
# it, so the test and the document cannot drift apart), in a fresh copy of the
# source tree (what a clone has). The package must hold the programs, the man
# page and every completion. Those steps build a preset of their own, so what
# `.ci/demo` built before (its cmake lines, read from .ci/demo: only the four
# programs, in the default preset's folder) cannot change them: the test
# checks that the two name different presets (issue 29.9).
# usage: test_source_build.sh <source dir> <work dir>
set -euo pipefail
src=$1 work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/src"
# The files a clone has (tracked, and new ones git does not ignore).
git -C "$src" ls-files -co --exclude-standard -z | (cd "$src" && xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$work/src"
cd "$work/src"
# The fenced block that follows "**From source**" in README.md.
awk '/^\*\*From source\*\*/ {f = 1; next} f && /^```/ {if (b) exit; b = 1; next} b' README.md >"$work/readme_steps.sh"
grep -q 'cpack -G DEB' "$work/readme_steps.sh" || fail "README.md's From source block has no cpack -G DEB step"
preset_of() { sed -n 's/.*cmake --preset \([A-Za-z0-9_-]*\).*/\1/p' "$1" | head -n 1; }
readme_preset=$(preset_of "$work/readme_steps.sh")
demo_preset=$(preset_of .ci/demo)
[ -n "$readme_preset" ] && [ -n "$demo_preset" ] || fail "no cmake --preset line in README.md's steps or .ci/demo"
[ "$readme_preset" != "$demo_preset" ] ||
    fail "README.md's steps build the preset .ci/demo builds ($demo_preset): what the demo built would change them"
log=$work/build.log
run_steps() {
    echo "== $1:" >>"$log"
    cat "$2" >>"$log"
    bash -e "$2" >>"$log" 2>&1 || { tail -n 40 "$log"; fail "$1's steps failed (above)"; }
}
run_steps "README.md" "$work/readme_steps.sh"
deb=$(ls "$work"/src/build/"$readme_preset"/cudaenv_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || fail "README.md's steps made no .deb in build/$readme_preset"
dpkg-deb --contents "$deb" | awk '{print $6}' | sort >"$work/contents.txt"
# Every shell's completion where the shell table says (`cudaenv __shells`).
completions=$("$work/src/build/$readme_preset/cudaenv" __shells | awk -F '\t' '$3 != "windows" && $4 != "" {print "./usr/share/" $4}')
[ -n "$completions" ] || fail "cudaenv __shells names no completion file"
for f in ./usr/bin/cudaenv ./usr/bin/cudaenv-install ./usr/bin/cudaenv-probe ./usr/bin/cudaenv-shim \
         ./usr/share/man/man1/cudaenv.1.gz $completions; do
    grep -qxF "$f" "$work/contents.txt" || fail "$f is not in $(basename "$deb")"
done
echo "PASS: README's steps (preset $readme_preset; .ci/demo builds $demo_preset) make $(basename "$deb") with the programs, the man page and the completions"
rm -rf "$work"
