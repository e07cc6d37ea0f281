#!/bin/sh
# The scenarios the VM suite asserts on, run in one boot (see Tests/arcaptureTests/VividVMTests.swift).
# Runs as root in the guest (busybox sh, cwd /app, ./arcapture is the freshly built binary) and
# writes, per scenario NAME: /out/NAME.out (stdout), /out/NAME.err (stderr), /out/NAME.rc (status),
# plus a few extra facts (holder PIDs, times) and the files arcapture wrote (copied from R at the
# end). The host-side tests read these files.
set -u
# Files arcapture itself writes (--junit, --stream-to, coverage counters) go to R, in the guest's
# memory, and are copied to /out at the end by root: when QEMU runs as a normal user, the 9p share
# lets the guest's root write but not its other users.
R=/tmp/results
mkdir -p $R/profiles && chmod -R 0777 $R
# A test build is instrumented for coverage: each run writes its counters to R/profiles, which the
# host merges into the suite's coverage report (/app is read-only for the guest's users).
export LLVM_PROFILE_FILE=$R/profiles/arcapture-%p.profraw
C=/dev/video0
O=/dev/video1

# What udev does on a Debian board: group video, mode 0660, and the persistent by-path links
# (60-persistent-v4l.rules; a platform device has no by-id link).
udev_apply() {
    for node in /dev/video* /dev/media* /dev/v4l-touch* /dev/vbi* /dev/radio* /dev/swradio*; do
        [ -e "$node" ] && chgrp video "$node" && chmod 0660 "$node"
    done
    mkdir -p /dev/v4l/by-path
    for node in /dev/video*; do
        index=$(cat "/sys/class/video4linux/${node#/dev/}/index" 2>/dev/null || echo 0)
        bus=$(basename "$(readlink -f "/sys/class/video4linux/${node#/dev/}/device")")
        [ "$node" = "$C" ] && ln -sf "../../${node#/dev/}" "/dev/v4l/by-path/platform-$bus-video-index$index"
    done
}

# run NAME USER COMMAND...: runs arcapture as USER, recording stdout, stderr and status.
run() {
    name=$1 user=$2
    shift 2
    if [ "$user" = root ]; then
        ./arcapture "$@" > "/out/$name.out" 2> "/out/$name.err"
    else
        su -s /bin/sh "$user" -c "./arcapture $*" > "/out/$name.out" 2> "/out/$name.err"
    fi
    echo $? > "/out/$name.rc"
}

reload_vivid() {
    rmmod vivid
    # shellcheck disable=SC2046
    insmod /modules/vivid.ko $(cat /etc/arcapture-vm/vivid-params)
    udev_apply
}

udev_apply
up() { cut -d' ' -f1 /proc/uptime; }
echo "start $(up)" > /out/times.txt

# --- Listing.
run devices-json cam devices --json
run devices-text cam devices

# --- The smoke test on two sizes and two pixel formats, raw ioctls, plus automatic choice.
run check-yuyv-640x480 cam check --format YUYV --size 640x480 --fps 25 --frames 30 --json --junit $R/check-yuyv.junit.xml
run check-nv12-1280x720 cam check --format NV12 --size 1280x720 --fps 12.5 --frames 15 --json
run check-auto-320x180 cam check --size 320x180 --frames 30 --json
run check-text cam check --size 640x360 --fps 40 --frames 20

# --- libv4l2's path, and a stable by-path link as the device.
run check-libv4l2 cam check --libv4l2 --format RGB3 --size 640x480 --fps 25 --frames 15 --json
run check-by-path cam check --device /dev/v4l/by-path/platform-vivid.0-video-index0 --frames 10 --fps 25 --size 640x480 --json

# --- A pixel format the driver does not have (vivid substitutes one instead of failing).
run check-mjpeg-absent cam check --format MJPG --frames 5 --json

# --- Denied: a user outside group video.
run denied outsider check --frames 5 --json

# --- Busy: another process streams from the node.
su -s /bin/sh cam -c "v4l2-ctl -d $C --stream-mmap --stream-count=100000 >/dev/null 2>&1" &
sleep 2
holder=$(pidof v4l2-ctl)
echo "$holder" > /out/busy.holder
run busy cam check --frames 5 --json
kill "$holder" 2>/dev/null
wait

# --- Absent node.
run absent cam check --device /dev/video9 --frames 5 --json

# --- Dropped frames: vivid drops a share of its buffers (sequence gaps) on request.
v4l2-ctl -d $C -c percentage_of_dropped_buffers=40
run drops cam check --format YUYV --size 320x180 --fps 50 --frames 40 --json
v4l2-ctl -d $C -c percentage_of_dropped_buffers=0

# --- A buffer the driver flags as damaged mid-stream: counted as invalid, the stream goes on.
( sleep 1.5; v4l2-ctl -d $C -c inject_v4l2_buf_flag_error=1 ) &
run buf-error cam check --format YUYV --size 320x180 --fps 25 --frames 75 --json
wait

# --- VIDIOC_STREAMON fails.
v4l2-ctl -d $C -c inject_vidioc_streamon_error=1
run streamon-error cam check --frames 5 --json

# --- Ctrl-C while streaming: the session stops cleanly, exit 130, and --stream-to leaves no file.
su -s /bin/sh cam -c "exec ./arcapture check --format YUYV --size 320x180 --fps 25 --frames 1000 --stream-to $R/interrupted.yuyv --json" \
    > /out/interrupt.out 2> /out/interrupt.err &
checker=$!
sleep 2
kill -INT "$(pidof arcapture)"
wait $checker
echo $? > /out/interrupt.rc
ls -a $R > /out/interrupt.files

# --- Byte for byte: frames written to the output node come back on the capture node (HDMI loop).
v4l2-ctl -d $C -i 3 >/dev/null && v4l2-ctl -d $O -o 1 >/dev/null
v4l2-ctl -d $C --set-dv-bt-timings index=0 >/dev/null
v4l2-ctl -d $O --set-dv-bt-timings index=0 >/dev/null
v4l2-ctl -d $O --set-fmt-video-out=width=640,height=480,pixelformat=YUYV
v4l2-ctl -d $C -c loop_video=1 -c osd_text_mode=2
v4l2-ctl -d $O --stream-out-mmap --stream-from=/app/pattern-640x480.yuyv --stream-loop >/dev/null 2>&1 &
feeder=$!
sleep 1
run loop cam check --format YUYV --size 640x480 --frames 5 --stream-to $R/loop.yuyv --json
kill $feeder
wait
v4l2-ctl -d $C -c loop_video=0 -c osd_text_mode=0 -i 0 >/dev/null

# --- Unplug while streaming: vivid's disconnect control unregisters every node.
( sleep 2; v4l2-ctl -d $C -c disconnect=1 ) &
run unplug cam check --format YUYV --size 320x180 --fps 25 --frames 500 --json
wait
reload_vivid

# --- A camera that appears while requestAccess waits: the node appears root-only, then "udev"
# gives it to group video, as on a real board.
rmmod vivid
echo "waiting $(up)" >> /out/times.txt
su -s /bin/sh cam -c "./arcapture check --wait 30 --frames 5 --size 640x480 --fps 25 --json" \
    > /out/appear.out 2> /out/appear.err &
waiter=$!
sleep 2
echo "plugged $(up)" >> /out/times.txt
# shellcheck disable=SC2046
insmod /modules/vivid.ko $(cat /etc/arcapture-vm/vivid-params)
sleep 0.5
udev_apply
wait $waiter
echo $? > /out/appear.rc
echo "end $(up)" >> /out/times.txt
cp -r $R/. /out/
exit 0
