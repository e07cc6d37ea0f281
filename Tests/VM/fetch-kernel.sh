#!/usr/bin/env bash
# Unpacks a Debian kernel (with its vivid and 9p modules) for the test VM, without installing it:
# `apt-get download` + `dpkg-deb -x` takes seconds, while installing linux-image-amd64 runs
# update-initramfs for a minute and changes the host. Prints the root directory, which holds
# boot/vmlinuz-<version> and lib/modules/<version>/.
#
# Usage: Tests/VM/fetch-kernel.sh          (cached in ${ARCAPTURE_VM_CACHE:-~/.cache/arcapture-vm})
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"   # depmod lives in sbin, which a normal user's PATH lacks on Debian
cache=${ARCAPTURE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arcapture-vm}
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
resolve() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}'; }
package=$(resolve)
if [ -z "$package" ]; then
    # A machine whose package lists were never fetched (or were cleaned) knows no kernel package yet.
    "${sudo[@]}" apt-get update -qq
    package=$(resolve)
fi
if [ -z "$package" ]; then
    echo "fetch-kernel: apt knows no linux-image-amd64 package (is a Debian mirror configured?)" >&2
    exit 1
fi
root=$cache/$package
if [ ! -e "$root/.complete" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/arcapture-kernel.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    # As root, apt's sandbox user (_apt) cannot write into a private temporary directory.
    sandbox=()
    [ "$(id -u)" -eq 0 ] && sandbox=(-o APT::Sandbox::User=root)
    ( cd "$work" && apt-get -qq "${sandbox[@]}" download "$package" )
    rm -rf "$root"
    mkdir -p "$root"
    dpkg-deb -x "$work"/"$package"_*.deb "$root"
    version=${package#linux-image-}
    depmod -b "$root" "$version"
    touch "$root/.complete"
fi
echo "$root"
