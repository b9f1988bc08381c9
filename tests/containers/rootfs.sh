#!/usr/bin/env bash
# Builds the root file systems the container tests import as images, once:
# the tarball is kept in the CI cache folder, so a second run takes none of
# this time.
#   rootfs.sh busybox OUT.tar   busybox-static and its applets (no libc at all)
#   rootfs.sh minbase OUT.tar   Debian's `debootstrap --variant=minbase` of this
#                               machine's release, from the mirror apt uses (glibc)
set -euo pipefail
kind=$1 out=$2
[ -s "$out" ] && exit 0
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/cudaenv-rootfs.XXXXXX")"
trap 'rm -rf "$work"' EXIT
root="$work/root"
case "$kind" in
busybox)
  mkdir -p "$root/bin" "$root/tmp" "$root/etc"
  cp /bin/busybox "$root/bin/busybox"
  for applet in $("$root/bin/busybox" --list); do
    [ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
  done
  echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
  ;;
minbase)
  codename="$(. /etc/os-release && echo "$VERSION_CODENAME")"
  mirror="$(bash "$here/../../cmake/debian-mirror.sh")"
  debootstrap --variant=minbase "$codename" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || {
    tail -20 "$work/debootstrap.log" >&2
    exit 1
  }
  # What only an installed system needs: package lists, caches, logs.
  rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/var/log/*
  ;;
*)
  echo "rootfs.sh: unknown kind '$kind' (busybox or minbase)" >&2
  exit 2
  ;;
esac
mkdir -p "$(dirname "$out")"
tar --numeric-owner --sort=name -C "$root" -cf "$out.part" .
mv "$out.part" "$out"
