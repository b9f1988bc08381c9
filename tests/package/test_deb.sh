#!/usr/bin/env bash
# The Debian package as a user gets it: `cpack -G DEB` from this build,
# lintian (no errors, no warnings without an explained override), then, as
# root on a machine without cudaenv installed, `apt-get install ./cudaenv_*.deb` (as README says), the programs,
# completions (bash with bash-completion, zsh, fish) and the man page where
# those look, and `dpkg -r` removing every file it installed while the user's
# store stays.
#
# usage: test_deb.sh <build dir> <work dir>
set -euo pipefail
build=$1 work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work"

# 1. The package.
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/out/cudaenv_*.deb)
echo "package: $(basename "$deb")"
dpkg-deb --info "$deb" | sed -n '/Package:/,$p'
dpkg-deb --contents "$deb" | awk '{print $6}' | sort >"$work/contents.txt"
cat "$work/contents.txt"
# Every shell's completion where the shell table says (`cudaenv __shells`).
completions=$("$build/cudaenv" __shells | awk -F '\t' '$3 != "windows" && $4 != "" {print "./usr/share/" $4}')
[ -n "$completions" ] || fail "cudaenv __shells names no completion file"
for f in ./usr/bin/cudaenv ./usr/bin/cudaenv-install ./usr/bin/cudaenv-probe ./usr/bin/cudaenv-shim $completions \
         ./usr/share/man/man1/cudaenv.1.gz ./usr/share/doc/cudaenv/copyright ./usr/share/doc/cudaenv/changelog.gz \
         ./usr/share/doc/cudaenv/README.md; do
  grep -qxF "$f" "$work/contents.txt" || fail "$f is not in the package"
done
dpkg-deb --field "$deb" Depends | grep -q 'libc6' || fail "Depends does not come from the binaries (shlibdeps)"
# No maintainer scripts: the private audit library needs no ldconfig, and a
# postrm would keep an `rc` entry after `dpkg -r`.
dpkg-deb --ctrl-tarfile "$deb" | tar -t >"$work/control.txt"
if grep -Eq '(^|/)(preinst|postinst|prerm|postrm|triggers)$' "$work/control.txt"; then
  cat "$work/control.txt"; fail "the package has maintainer scripts"
fi
grep -qx "./usr/lib/$(gcc -print-multiarch)/cudaenv/libcudaenv-audit.so" "$work/contents.txt" ||
  fail "the audit library is not in its private folder"

# 2. lintian: warnings count as failures unless packaging/lintian-overrides explains them.
if command -v lintian >/dev/null; then
  lintian --fail-on error,warning --display-info "$deb" | tee "$work/lintian.txt" ||
    fail "lintian reports errors or warnings (above)"
  echo "lintian: no errors, no warnings"
else
  fail "lintian is not installed (bash .ci/deps.sh installs it)"
fi

# 3. Installed for real: only as root, and never over a cudaenv already installed.
if [ "$(id -u)" != 0 ]; then echo "SKIP: installing a package needs root"; exit 0; fi
exec 9>/var/lock/cudaenv-package-test.lock
flock 9  # one test run at a time installs into this machine
if dpkg-query -W -f='${Status}' cudaenv 2>/dev/null | grep -q 'ok installed'; then
  echo "SKIP: a cudaenv package is installed on this machine already; not touching it"; exit 0
fi
# Which of the package's paths exist (other programs may install things
# meanwhile, so only the package's own paths are compared).
snapshot() {
  while read -r p; do p=${p#.}; p=${p%/}; [ -n "$p" ] || continue
    if [ -e "$p" ] || [ -L "$p" ]; then echo "present $p"; else echo "absent $p"; fi
  done <"$work/contents.txt"
}
snapshot >"$work/before.txt"
home="$work/home"
mkdir -p "$home/.local/share/cudaenv"
echo 'global = "12"' >"$home/.local/share/cudaenv/config.toml"
cleanup() { dpkg -r cudaenv >/dev/null 2>&1 || true; }
trap cleanup EXIT
# As README's Install section says: apt installs a local .deb, named by a
# path (and would pull in a missing dependency; here they are all present).
DEBIAN_FRONTEND=noninteractive apt-get install -y "$deb" \
  >"$work/apt-install.log" 2>&1 || { cat "$work/apt-install.log"; fail "apt-get install ./cudaenv_*.deb"; }

# A fresh login-like bash: clean environment, the system's PATH, bash-completion loaded.
login() {
  env -i HOME="$home" USER=root LOGNAME=root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    TERM=dumb LANG=C.UTF-8 "$@"
}
out=$(login bash --noprofile --norc -c '
  set -e
  . /usr/share/bash-completion/bash_completion
  cudaenv --version
  type -P cudaenv
  # bash-completion loads a command'"'"'s completion on its first TAB; ask it as TAB does.
  _completion_loader cudaenv || true
  complete -p cudaenv
  COMP_WORDS=(cudaenv u); COMP_CWORD=1; COMP_LINE="cudaenv u"; COMP_POINT=${#COMP_LINE}
  fn=$(complete -p cudaenv | sed -n "s/.*-F \([^ ]*\).*/\1/p")
  "$fn" cudaenv u cudaenv
  echo "offers: ${COMPREPLY[*]}"
') || { echo "$out"; fail "bash session"; }
echo "$out"
grep -q '^cudaenv ' <<<"$out" || fail "cudaenv --version"
grep -qx '/usr/bin/cudaenv' <<<"$out" || fail "cudaenv on PATH"
grep -q 'complete -F .* cudaenv' <<<"$out" || fail "complete -p cudaenv"
offers=$(sed -n 's/^offers: //p' <<<"$out")
for w in use uninstall; do grep -qw "$w" <<<"$offers" || fail "cudaenv u<TAB> does not offer $w: $offers"; done

manpage=$(login man -w cudaenv) || fail "man -w cudaenv"
echo "man: $manpage"
login man cudaenv 2>&1 | grep -q 'cudaenv use' || fail "the man page lacks the commands"

# zsh finds _cudaenv on its default fpath; fish completes from vendor_completions.d.
z=$(login zsh -f -c 'autoload -Uz compinit; compinit -u -d "$HOME/.zcompdump"; print -r -- ${_comps[cudaenv]}')
[ "$z" = "_cudaenv" ] || fail "zsh: _comps[cudaenv] = '$z'"
f=$(login fish -c 'complete -C"cudaenv u"' | cut -f1)
grep -qx use <<<"$f" && grep -qx uninstall <<<"$f" || fail "fish: cudaenv u<TAB> gives: $f"
echo "zsh: $z; fish: $(echo $f)"

# trace finds its audit library in the installed private folder.
login cudaenv trace system -- true >"$work/trace.log" 2>&1 || { cat "$work/trace.log"; fail "cudaenv trace, installed"; }

dpkg -r cudaenv >"$work/dpkg-r.log" 2>&1 || { cat "$work/dpkg-r.log"; fail "dpkg -r"; }
trap - EXIT
status=$(dpkg-query -W -f='${db:Status-Abbrev}' cudaenv 2>/dev/null || true)
case "$status" in rc*) fail "dpkg -r left an rc entry ($status)" ;; esac
snapshot >"$work/after.txt"
if ! diff -u "$work/before.txt" "$work/after.txt"; then fail "dpkg -r left files behind (above)"; fi
[ "$(cat "$home/.local/share/cudaenv/config.toml")" = 'global = "12"' ] || fail "the user's store changed"
echo "dpkg -r: every installed file removed; the user's store kept"
echo PASS
