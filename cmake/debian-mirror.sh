#!/usr/bin/env bash
# Prints the URI of the Debian archive this machine's apt already uses for its
# release (the `deb` source whose suite is the release's codename), so scripts
# that add a component (non-free, deb-src) use the same mirror and no host name
# is ever written into this repository. Reads both source formats: deb822
# `*.sources` files and one-line `sources.list` entries. Exits 1 if none.
#
# Usage: uri="$(bash cmake/debian-mirror.sh)"
set -euo pipefail

codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
[ -n "$codename" ] || { echo "debian-mirror: /etc/os-release names no VERSION_CODENAME" >&2; exit 1; }

{
  # deb822: a stanza is a run of lines up to a blank line.
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v want="$codename" '
      function flush() {
        if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " want " ") && uris != "" && enabled != "no")
          { split(uris, u, " "); print u[1] }
        types = ""; suites = ""; uris = ""; enabled = ""
      }
      /^[[:space:]]*$/ { flush(); next }
      /^[[:space:]]*#/ { next }
      tolower($1) == "types:"   { $1 = ""; types = $0 }
      tolower($1) == "suites:"  { $1 = ""; suites = $0 }
      tolower($1) == "uris:"    { $1 = ""; sub(/^ +/, ""); uris = $0 }
      tolower($1) == "enabled:" { enabled = tolower($2) }
      END { flush() }' "$f"
  done
  # One-line format: deb [options] URI SUITE COMPONENT...
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk -v want="$codename" '
      $1 == "deb" {
        i = 2
        if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
        if ($(i + 1) == want) print $i
      }' "$f"
  done
} | sed 's#/*$##' | head -n 1 | grep . || {
  echo "debian-mirror: no apt source for $codename found in /etc/apt" >&2
  exit 1
}
