#!/usr/bin/env bash
# Unpacks a Debian kernel (with its vivid and 9p modules) for the test VM, without installing it:
# `apt-get download` + `dpkg-deb -x` takes seconds, while installing linux-image-amd64 runs
# update-initramfs for a minute and changes the host. Prints the root directory, which holds
# boot/vmlinuz-<version> and lib/modules/<version>/.
#
# Usage: Tests/VM/fetch-kernel.sh          (cached in ${ARCAPTURE_VM_CACHE:-~/.cache/arcapture-vm})
set -euo pipefail
cache=${ARCAPTURE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arcapture-vm}
package=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
if [ -z "$package" ]; then
    echo "fetch-kernel: cannot resolve linux-image-amd64 (run 'apt-get update' first)" >&2
    exit 1
fi
root=$cache/$package
if [ ! -e "$root/.complete" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/arcapture-kernel.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    ( cd "$work" && apt-get -qq -o APT::Sandbox::User=root download "$package" )
    rm -rf "$root"
    mkdir -p "$root"
    dpkg-deb -x "$work"/"$package"_*.deb "$root"
    version=${package#linux-image-}
    depmod -b "$root" "$version"
    touch "$root/.complete"
fi
echo "$root"
