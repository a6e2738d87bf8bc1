#!/bin/sh
# Makes a local Debian base image for building the CellCloud image where no image registry is
# reachable (the test machines; see deploy/README.md). Users pass an official image instead
# (`--build-arg BASE_IMAGE=docker.io/library/node:24-slim`).
#
#   deploy/podman/base-image.sh [image]      default image: localhost/cellcloud-base:<suite>
#
# The root filesystem comes from `debootstrap --variant=minbase` against the Debian mirror that
# apt is configured with, is kept as a tarball under CELLCLOUD_BASE_CACHE (default
# /var/cache/cellcloud) named by suite and date, and is `podman import`ed. A tarball younger than
# CELLCLOUD_BASE_MAX_AGE_DAYS (default 30) is reused, so a fresh clone on the same machine does not
# run debootstrap again. Needs root (debootstrap) unless the image or a tarball already exists.
set -eu

suite="${CELLCLOUD_BASE_SUITE:-}"
if [ -z "$suite" ] && [ -r /etc/os-release ]; then
  suite="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
fi
suite="${suite:-bookworm}"
image="${1:-localhost/cellcloud-base:$suite}"
cache="${CELLCLOUD_BASE_CACHE:-/var/cache/cellcloud}"
max_age="${CELLCLOUD_BASE_MAX_AGE_DAYS:-30}"

if podman image exists "$image"; then
  echo "base image $image exists"
  exit 0
fi

mkdir -p "$cache"
tarball="$(find "$cache" -maxdepth 1 -name "debian-$suite-*.tar" -mtime "-$max_age" 2>/dev/null | sort | tail -n 1)"
if [ -z "$tarball" ]; then
  # The mirror apt uses: deb822 sources first, then the classic list; deb.debian.org otherwise.
  mirror="$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\/\{0,1\}\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)"
  if [ -z "$mirror" ]; then
    mirror="$(sed -n 's/^deb[[:space:]]\{1,\}\([^[:space:]]*\/debian\/\{0,1\}\)[[:space:]].*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n 1)"
  fi
  mirror="${CELLCLOUD_DEBIAN_MIRROR:-${mirror:-http://deb.debian.org/debian}}"
  root="$(mktemp -d "$cache/rootfs.XXXXXX")"
  trap 'rm -rf "$root"' EXIT
  echo "debootstrap $suite from $mirror (a few minutes, once)…"
  debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 || {
    tail -n 20 "$cache/debootstrap.log" >&2
    exit 1
  }
  # Same sources inside the image, so `apt-get install` in a build stage uses the mirror too.
  printf 'deb %s %s main\n' "$mirror" "$suite" >"$root/etc/apt/sources.list"
  rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*
  tarball="$cache/debian-$suite-$(date -u +%Y%m%d).tar"
  tar -C "$root" --numeric-owner -cf "$tarball.part" .
  mv "$tarball.part" "$tarball"
fi
echo "importing $tarball as $image"
podman import --change 'CMD ["/bin/bash"]' "$tarball" "$image" >/dev/null
echo "base image $image ready"
