#!/usr/bin/env bash
# Builds the v4l2loopback kernel module (Debian 12's v4l2loopback-dkms, the driver OBS's virtual
# camera uses) for the test VM's kernel, without installing anything: `apt-get download` of the
# module's source and the kernel's headers, `dpkg-deb -x`, an out-of-tree `make`. Prints the path
# of the built v4l2loopback.ko. The VM tests load it next to vivid: MJPEG from a real driver, and
# a virtual camera that arcapture writes to.
#
# Usage: Tests/VM/build-loopback.sh KERNEL_ROOT   (KERNEL_ROOT as fetch-kernel.sh prints it; the
#        module is cached in ${ARCAPTURE_VM_CACHE:-~/.cache/arcapture-vm}, keyed by both versions)
#
# The kernel was built with gcc-12, so the module is too (a different compiler refuses to build
# or builds a module the kernel may reject). Learned in ../shared/vivid-vm/v4l2loopback: the arch
# headers' Makefile includes the -common headers' Makefile by absolute path under /usr/src, so it
# is pointed at the extracted copy; scripts/ and tools/ are relative links that then resolve.
set -euo pipefail
die() { echo "build-loopback: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: $0 KERNEL_ROOT"
KROOT=$1
KVER=$(ls "$KROOT/lib/modules" 2>/dev/null | sort -V | tail -n 1)
[ -n "$KVER" ] || die "no kernel modules under $KROOT (run Tests/VM/fetch-kernel.sh)"
for tool in gcc-12 make apt-get dpkg-deb; do
    command -v "$tool" >/dev/null || die "'$tool' not found: run 'bash scripts/install-deps' (as root or with sudo)"
done
[ -e /usr/include/stdio.h ] || die "the C library's headers are missing: run 'bash scripts/install-deps'"

source_version=$(apt-cache policy v4l2loopback-dkms 2>/dev/null | awk '/Candidate:/ {print $2; exit}')
[ -n "$source_version" ] && [ "$source_version" != "(none)" ] ||
    die "apt knows no v4l2loopback-dkms package (run 'apt-get update'; is a Debian 12 mirror configured?)"
cache=${ARCAPTURE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arcapture-vm}
target=$cache/v4l2loopback-$source_version-$KVER/v4l2loopback.ko
if [ ! -s "$target" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/arcapture-loopback.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    mkdir -p "$work/debs" "$work/headers" "$work/module"
    # As root, apt's sandbox user (_apt) cannot write into a private temporary directory.
    sandbox=()
    [ "$(id -u)" -eq 0 ] && sandbox=(-o APT::Sandbox::User=root)
    # The headers' -common package and the kbuild tools they name, by the kernel's own version.
    common="linux-headers-${KVER%-amd64}-common"
    kbuild=$(apt-cache depends "linux-headers-$KVER" 2>/dev/null | awk '/Depends: linux-kbuild-/ {print $2; exit}')
    [ -n "$kbuild" ] || die "apt knows no headers for $KVER (linux-headers-$KVER)"
    ( cd "$work/debs" && apt-get -qq "${sandbox[@]}" download v4l2loopback-dkms "linux-headers-$KVER" "$common" "$kbuild" ) ||
        die "could not download the module's source and $KVER's headers"
    for deb in "$work"/debs/linux-*.deb; do dpkg-deb -x "$deb" "$work/headers"; done
    dpkg-deb -x "$work"/debs/v4l2loopback-dkms_*.deb "$work/module"
    headers=$work/headers/usr/src
    sed -i "s|^include /usr/src/|include $headers/|" "$headers/linux-headers-$KVER/Makefile"
    src=$(ls -d "$work"/module/usr/src/v4l2loopback-* | head -n 1)
    make -s -C "$headers/linux-headers-$KVER" M="$src" CC=gcc-12 modules >"$work/make.log" 2>&1 ||
        die "the module did not build for $KVER: $(tail -n 20 "$work/make.log")"
    vermagic=$(modinfo -F vermagic "$src/v4l2loopback.ko" 2>/dev/null || true)
    case $vermagic in "$KVER "*) ;; *) die "the module was built for '$vermagic', not $KVER" ;; esac
    mkdir -p "$(dirname "$target")"
    cp "$src/v4l2loopback.ko" "$target.partial"
    mv -f "$target.partial" "$target"
fi
echo "$target"
