#!/usr/bin/env bash
# Boots a throw-away QEMU VM with Linux's vivid virtual camera driver and runs a script from
# PAYLOAD in it, so arcapture's tests drive a real V4L2 driver on machines with no camera (and in
# containers that cannot load kernel modules). Results come back live over virtio-9p in OUT.
#
# Usage: Tests/VM/vivid-vm.sh PAYLOAD OUT SCRIPT
#   PAYLOAD  directory copied to /app in the guest; every ELF file in it comes with its libraries
#   OUT      host directory mounted at /out in the guest (created; should be empty)
#   SCRIPT   shell script inside PAYLOAD, run by busybox sh as root with /app as working directory
#
# Exit status: the script's status; 124 on timeout; 125 when the VM did not report one.
#
# Environment:
#   ARCAPTURE_VM_KERNEL_ROOT  directory with boot/vmlinuz-* and lib/modules/*, as fetch-kernel.sh
#                             prints it (default: run fetch-kernel.sh's cache lookup)
#   ARCAPTURE_VM_TIMEOUT      seconds before the VM is killed (default 300)
#   ARCAPTURE_VM_ACCEL        auto (default), kvm or tcg
#   ARCAPTURE_VM_VIVID_PARAMS vivid module parameters (default: one instance, all nodes)
#   ARCAPTURE_VM_DISK         a raw disk image attached as /dev/vda (virtio), for scenarios with a
#                             real file system on a block device (power loss: scripts/stress-power-loss)
#   ARCAPTURE_VM_PIDFILE      where QEMU writes its process ID, for a host script that kills the
#                             VM outright (a power cut); the status is then 124 or 125
#   ARCAPTURE_VM_FORWARD      a TCP port of the host's loopback that QEMU forwards to the guest's
#                             port 8080 (a browser on the host reaching a server in the guest)
#   ARCAPTURE_VM_HOST_PROGRAMS programs of the host's /usr/bin (space-separated, e.g. ffmpeg) the
#                             guest runs as host-NAME: the host's /usr is mounted read-only over
#                             virtio-9p at /host/usr and host-NAME starts the program with the
#                             host's dynamic loader and library directories. An independent reader
#                             with 216 libraries (ffmpeg) then costs no initramfs: copied in, they
#                             made it 294 MB and needed 2 GB of guest memory (../shared/vivid-vm).
#   ARCAPTURE_VM_CPUS         virtual CPUs under TCG (default 1). Measured on this project's 2-core
#                             machine, the whole guest suite: 1 vCPU 78 s quiet, 115 s with both host
#                             cores busy; 2 vCPUs (multi-threaded TCG) 76 s quiet, 134 s busy and more
#                             frames skipped by vivid, since the vCPUs then compete with the load.
#
# QEMU's user network gives the guest the host's loopback at 10.0.2.2 (a gpsd there serves it).
#
# The guest has what a Debian board with a USB webcam has, minus udev: /etc/passwd and /etc/group
# with the users `cam` (in group video) and `outsider` (not), vivid's nodes, v4l2-ctl, and the
# modules in /modules so the script can unload and reload vivid (to play unplug and hot-plug).
# Without udev, nodes appear as root:root 0600; the script applies udev's group and mode itself.
#
# Learned from ../shared/vivid-vm (see its NOTES.md): boot the uncompressed vmlinux through PVH
# (TCG spends seconds decompressing a bzImage), one vCPU under TCG, an uncompressed initramfs, and
# never trust KVM exposed through kvm_pvm (nested without VMX: slower than TCG, then it crashes).
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"   # modprobe and depmod live in sbin, which a normal user's PATH lacks

die() { echo "vivid-vm: $*" >&2; exit 2; }
[ $# -eq 3 ] || die "usage: $0 PAYLOAD OUT SCRIPT"
PAYLOAD=$(cd "$1" && pwd)
mkdir -p "$2"
OUT=$(cd "$2" && pwd)
SCRIPT=$3
[ -f "$PAYLOAD/$SCRIPT" ] || die "no script '$SCRIPT' in $PAYLOAD"
HERE=$(cd "$(dirname "$0")" && pwd)
TIMEOUT=${ARCAPTURE_VM_TIMEOUT:-300}
ACCEL=${ARCAPTURE_VM_ACCEL:-auto}

for tool in qemu-system-x86_64 busybox cpio ldd modprobe timeout v4l2-ctl; do
    command -v "$tool" >/dev/null || die "'$tool' not found: run 'bash scripts/install-deps' (as root or with sudo)"
done
ldd "$(command -v busybox)" >/dev/null 2>&1 && die "busybox must be the static build: apt-get install busybox-static"

KROOT=${ARCAPTURE_VM_KERNEL_ROOT:-$("$HERE/fetch-kernel.sh")}
KVER=$(ls "$KROOT/lib/modules" | sort -V | tail -n 1)
KERNEL=$KROOT/boot/vmlinuz-$KVER
[ -r "$KERNEL" ] || die "no kernel image at $KERNEL"

# --- The accelerator: KVM only when it is real hardware virtualisation that starts a VM.
kvm_usable() {
    [ -r /dev/kvm ] && [ -w /dev/kvm ] && [ ! -d /sys/module/kvm_pvm ] || return 1
    echo quit | timeout 20 qemu-system-x86_64 -accel kvm -cpu host,-arch-capabilities -M pc -nodefaults \
        -display none -m 64 -S -monitor stdio >/dev/null 2>&1
}
case $ACCEL in
    auto) if kvm_usable; then ACCEL=kvm; else ACCEL=tcg; fi ;;
    kvm | tcg) ;;
    *) die "ARCAPTURE_VM_ACCEL must be auto, kvm or tcg" ;;
esac
if [ "$ACCEL" = kvm ]; then ACCEL_ARGS=(-accel kvm -cpu host,-arch-capabilities -smp 2)
else ACCEL_ARGS=(-accel tcg -cpu max -smp "${ARCAPTURE_VM_CPUS:-1}"); fi

# --- The initramfs.
WORK=$(mktemp -d "${TMPDIR:-/tmp}/arcapture-vm.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ROOT=$WORK/root
mkdir -p "$ROOT"/{usr/bin,usr/lib,usr/lib64,proc,sys,dev,tmp,out,app,etc/arcapture-vm,modules,root,home/cam,home/outsider}
for d in bin sbin lib lib64; do ln -s usr/$d "$ROOT/$d"; done
ln -s bin "$ROOT/usr/sbin"

# Copies an ELF file's shared libraries to the same paths in the guest.
copy_libraries() {
    { ldd "$1" 2>/dev/null || true; } | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' |
        while read -r lib; do
            [ -e "$ROOT$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$ROOT$lib"
        done
}
is_elf() { [ -f "$1" ] && [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; }

install -m 0755 "$(command -v busybox)" "$ROOT/usr/bin/busybox"
for applet in $(busybox --list); do [ -e "$ROOT/usr/bin/$applet" ] || ln -s busybox "$ROOT/usr/bin/$applet"; done
# Fonts as a board with fonts-dejavu-core has them: fontconfig's configuration and DejaVu.
if [ -d /etc/fonts ] && [ -d /usr/share/fonts/truetype/dejavu ]; then
    mkdir -p "$ROOT/etc" "$ROOT/var/cache/fontconfig"
    cp -a /etc/fonts "$ROOT/etc/"
    mkdir -p "$ROOT/usr/share/fonts/truetype/dejavu"
    cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \
        "$ROOT/usr/share/fonts/truetype/dejavu/"
    chmod 1777 "$ROOT/var/cache/fontconfig"
fi
rm -f "$ROOT/usr/bin/v4l2-ctl"
install -m 0755 "$(command -v v4l2-ctl)" "$ROOT/usr/bin/v4l2-ctl"
copy_libraries "$(command -v v4l2-ctl)"
cp -a "$PAYLOAD"/. "$ROOT/app/"
chmod 0755 "$ROOT/app"   # cp -a copied the payload directory's mode; the guest's users must enter it
while IFS= read -r -d '' file; do
    if is_elf "$file"; then copy_libraries "$file"; fi
done < <(find "$PAYLOAD" -type f -print0)

# Users as on a board: `cam` may use cameras (group video), `outsider` may not.
cat > "$ROOT/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
cam:x:1000:1000:camera user:/home/cam:/bin/sh
outsider:x:1001:1001:not in video:/home/outsider:/bin/sh
PASSWD
cat > "$ROOT/etc/group" <<'GROUP'
root:x:0:
video:x:44:cam
cam:x:1000:
outsider:x:1001:
GROUP
chmod 0755 "$ROOT/home/cam" "$ROOT/home/outsider"

# Kernel modules in dependency order (modprobe resolves them from modules.dep).
: > "$ROOT/etc/arcapture-vm/modules"
# loop, dm_mod and ext4 give the disk-fault scenarios a file system on a device that can fail;
# virtio_blk, vfat and its code pages the power-loss runs a disk and a USB stick's file system.
for module in virtio_pci 9pnet_virtio 9p virtio_net vivid loop dm_mod ext4 virtio_blk vfat nls_cp437 nls_ascii; do
    modprobe -C /dev/null -d "$KROOT" -S "$KVER" --show-depends "$module" | awk '$1 == "insmod" {print $2}'
done | awk '!seen[$0]++' | while read -r ko; do
    name=$(basename "$ko"); name=${name%%.ko*}
    case $ko in
        *.xz) xz -dc "$ko" > "$ROOT/modules/$name.ko" ;;
        *.zst) zstd -dcq "$ko" > "$ROOT/modules/$name.ko" ;;
        *) cp "$ko" "$ROOT/modules/$name.ko" ;;
    esac
    echo "$name" >> "$ROOT/etc/arcapture-vm/modules"
done
grep -qx vivid "$ROOT/etc/arcapture-vm/modules" || die "vivid is not among $KVER's modules"
printf '%s\n' "${ARCAPTURE_VM_VIVID_PARAMS:-}" > "$ROOT/etc/arcapture-vm/vivid-params"
printf '%s\n' "$SCRIPT" > "$ROOT/etc/arcapture-vm/script"

# Host programs run from the host's /usr (see ARCAPTURE_VM_HOST_PROGRAMS): the wrapper names the
# loader and every directory the program's libraries resolve to on the host (symbolic links into
# /etc/alternatives, as for BLAS, would dangle in the guest), under /host.
HOST_USR_ARGS=()
for program in ${ARCAPTURE_VM_HOST_PROGRAMS:-}; do
    path=$(command -v "$program") || die "'$program' not found on the host: run 'bash scripts/install-deps' (as root or with sudo)"
    path=$(readlink -f "$path")
    case $path in /usr/*) ;; *) die "$program is not under /usr ($path)" ;; esac
    loader=$(readlink -f "$(ldd "$path" | awk '$1 ~ /^\// {print $1}' | head -n 1)")
    [ -n "$loader" ] || die "$program is not a dynamically linked program"
    dirs=$(ldd "$path" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | xargs -r readlink -f | xargs -r -n 1 dirname |
        awk '!seen[$0]++ {printf "%s/host%s", sep, $0; sep = ":"}')
    printf '#!/bin/sh\nexec /host%s --library-path %s /host%s "$@"\n' "$loader" "$dirs" "$path" > "$ROOT/usr/bin/host-$program"
    chmod 0755 "$ROOT/usr/bin/host-$program"
    HOST_USR_ARGS=(-virtfs "local,path=/usr,mount_tag=hostusr,security_model=none,readonly=on,id=hostusr")
done

cat > "$ROOT/init" <<'INIT'
#!/bin/sh
export PATH=/app:/usr/bin HOME=/root TERM=dumb
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs -o mode=1777 tmpfs /tmp
exec </dev/console >/dev/console 2>&1
report() { sync; echo "ARCAPTURE_VM_EXIT=$1"; poweroff -f; }
while read -r module; do
    params=""
    [ "$module" = vivid ] && params=$(cat /etc/arcapture-vm/vivid-params)
    # shellcheck disable=SC2086
    insmod "/modules/$module.ko" $params || { echo "insmod $module failed"; report 125; }
done < /etc/arcapture-vm/modules
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /out || report 125
# The host's /usr, when host programs were asked for; cache=loose lets the loader map libraries.
if ls /usr/bin/host-* >/dev/null 2>&1; then
    mkdir -p /host/usr
    mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro,cache=loose hostusr /host/usr || report 125
fi
# QEMU's user network: the host's loopback is 10.0.2.2 (a gpsd there serves the guest).
ip link set lo up
ip link set eth0 up 2>/dev/null && ip addr add 10.0.2.15/24 dev eth0 && ip route add default via 10.0.2.2
chmod 0777 /out
cd /app
sh "./$(cat /etc/arcapture-vm/script)" </dev/null
report $?
INIT
chmod 0755 "$ROOT/init"
( cd "$ROOT" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet ) > "$WORK/initrd.cpio"

# --- Boot: the uncompressed vmlinux through PVH when the kernel supports it, extracted once.
boot_image() {
    local cache=${ARCAPTURE_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arcapture-vm}
    local target=$cache/vmlinux-$KVER-$(stat -c %s "$KERNEL") offset partial
    grep -qs '^CONFIG_PVH=y' "$KROOT/boot/config-$KVER" || { echo "$KERNEL"; return; }
    if [ ! -s "$target" ]; then
        offset=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$KERNEL" | head -n 1 | cut -d: -f1)
        [ -n "$offset" ] || { echo "$KERNEL"; return; }
        mkdir -p "$cache"
        partial=$(mktemp "$target.XXXXXX")
        # Through a file, not a pipe: xz stops reading after its stream and tail would get SIGPIPE.
        tail -c +$((offset + 1)) "$KERNEL" > "$partial.xz"
        if xz -dcq --single-stream "$partial.xz" > "$partial" 2>/dev/null && is_elf "$partial"; then
            mv -f "$partial" "$target"
        else
            rm -f "$partial"
        fi
        rm -f "$partial.xz"
    fi
    if [ -s "$target" ]; then echo "$target"; else echo "$KERNEL"; fi
}
CONSOLE=$OUT/vm-console.log
EXTRA_ARGS=()
if [ -n "${ARCAPTURE_VM_DISK:-}" ]; then
    [ -f "$ARCAPTURE_VM_DISK" ] || die "no disk image at $ARCAPTURE_VM_DISK"
    # cache=writeback as on a board: what the guest has not flushed is lost when the VM is killed,
    # what it flushed (fsync) is in the host's page cache and survives the QEMU process.
    EXTRA_ARGS+=(-drive "file=$ARCAPTURE_VM_DISK,if=virtio,format=raw,cache=writeback")
fi
[ -n "${ARCAPTURE_VM_PIDFILE:-}" ] && EXTRA_ARGS+=(-pidfile "$ARCAPTURE_VM_PIDFILE")
FORWARD=""
if [ -n "${ARCAPTURE_VM_FORWARD:-}" ]; then
    case $ARCAPTURE_VM_FORWARD in *[!0-9]*) die "ARCAPTURE_VM_FORWARD must be a port number" ;; esac
    FORWARD=",hostfwd=tcp:127.0.0.1:$ARCAPTURE_VM_FORWARD-:8080"
fi
set +e
timeout -k 5 "$TIMEOUT" qemu-system-x86_64 -M pc -m 1024 "${ACCEL_ARGS[@]}" \
    -nodefaults -no-user-config -display none -no-reboot \
    -kernel "$(boot_image)" -initrd "$WORK/initrd.cpio" \
    -append "console=ttyS0 panic=-1 quiet loglevel=3" \
    -serial stdio \
    -virtfs "local,path=$OUT,mount_tag=out,security_model=none,id=out" \
    -netdev "user,id=net0,restrict=off$FORWARD" -device virtio-net-pci,netdev=net0,romfile= \
    ${EXTRA_ARGS[@]+"${EXTRA_ARGS[@]}"} ${HOST_USR_ARGS[@]+"${HOST_USR_ARGS[@]}"} \
    </dev/null 2>&1 | sed -u 's/\r$//' > "$CONSOLE"
qemu_status=${PIPESTATUS[0]}
set -e
status=$(grep -ao 'ARCAPTURE_VM_EXIT=[0-9]*' "$CONSOLE" | tail -n 1 | cut -d= -f2 || true)
if [ "$qemu_status" = 124 ] || [ "$qemu_status" = 137 ]; then
    echo "vivid-vm: timed out after ${TIMEOUT}s; see $CONSOLE" >&2
    exit 124
fi
[ -n "$status" ] || { echo "vivid-vm: the VM reported no status; see $CONSOLE" >&2; exit 125; }
exit "$status"
