#!/bin/sh
# The disk and output fault matrix (sourced after guest-lib.sh; run by guest-suite.sh). Each case
# NAME runs arcapture as user cam against a fault and records /out/disk-NAME.out, .err, .rc and
# .files (`ls -a` of the faulty folder afterwards), and copies the files it left to
# R/disk-NAME/ for the host to open with an independent decoder (VividDiskFaultTests).
#
# The faults: a full file system (a small tmpfs) at each output a run has (frames, the JSON-lines
# log, a stream on stdout, check's --stream-to, footage frames, a footage MJPEG file, the footage
# sidecar), a folder the user may not write, a read-only file system, an I/O error in the middle of
# a time-lapse (an ext2 file system on a device-mapper device whose table is swapped for `error`
# after three files), a real disk's file system filling up mid-time-lapse (ext4 with its journal and
# delayed allocation on a loop device, where ENOSPC can come at the flush rather than the write),
# and a stream reader that goes away (SIGPIPE).
SMALL=/tmp/small
ROOMY=/tmp/roomy
A=/app/arcapture
# A still's worth of options: 640x480 frames (about 60 kB each at --quality 95).
STILLS="--size 640x480 --fps 25 --quality 95"
# Footage: the first six frames of the sample clip (960x400), one fixed pose, the sample POIs.
FOOTAGE="/app/clip.mjpeg --position 60.1605,24.9325,5 --orientation 200,0,0 --hfov 70 --fps 8 --pois /app/pois.geojson"

# small_fs [SIZE]: a fresh small tmpfs at SMALL, writable by cam.
small_fs() {
    umount $SMALL 2>/dev/null
    mkdir -p $SMALL && mount -t tmpfs -o "size=${1:-300k}" tmpfs $SMALL && chmod 0777 $SMALL
}
# fill_fs: SMALL with no room left at all.
fill_fs() { dd if=/dev/zero of=$SMALL/filler bs=4k 2>/dev/null; sync; }
# fault NAME COMMAND: runs COMMAND (a shell command line) as cam and records the case.
fault() {
    name=$1
    shift
    rm -rf $ROOMY && mkdir -p $ROOMY && chmod 0777 $ROOMY
    su -s /bin/sh cam -c "$*" > "/out/disk-$name.out" 2> "/out/disk-$name.err"
    echo $? > "/out/disk-$name.rc"
    record "$name"
}
# record NAME: the faulty folder's listing and its files (and the roomy folder's), for the host.
record() {
    ls -a $SMALL > "/out/disk-$1.files" 2>/dev/null
    mkdir -p "$R/disk-$1"
    for f in $SMALL/* $ROOMY/*; do
        [ -f "$f" ] && [ "$(basename "$f")" != filler ] && cp "$f" "$R/disk-$1/"
    done
}

disk_faults() {
    # --- A full file system, at each kind of output.
    small_fs 300k
    fault full-stream "$A capture $STILLS --count 100 --output - > $SMALL/stream.mjpeg"
    small_fs 300k && fill_fs
    fault full-log "$A capture --size 320x180 --fps 25 --count 5 --output '$ROOMY/log-%n.jpg' --json-log $SMALL/log.jsonl"
    small_fs 300k
    fault full-stream-to "$A check --format YUYV --size 320x180 --fps 25 --frames 40 --stream-to $SMALL/check.yuyv --json"
    small_fs 300k
    fault full-footage-frames "$A annotate $FOOTAGE --output '$SMALL/%03n.jpg'"
    small_fs 300k
    fault full-footage-mjpeg "$A annotate $FOOTAGE --output $SMALL/out.mjpeg"
    small_fs 300k && fill_fs
    fault full-footage-sidecar "$A annotate $FOOTAGE --output '$ROOMY/%03n.jpg' --sidecar $SMALL/frames.jsonl"

    # --- A folder cam may not write, and a read-only file system: refused before the camera or
    # the footage is touched.
    small_fs 300k
    mkdir -p $SMALL/locked && chmod 0555 $SMALL/locked
    fault locked-folder "$A capture $STILLS --output $SMALL/locked/still.jpg"
    fault locked-footage "$A annotate $FOOTAGE --output '$SMALL/locked/%03n.jpg'"
    mount -o remount,ro $SMALL
    fault read-only "$A capture $STILLS --count 3 --output '$SMALL/ro-%n.jpg'"
    umount $SMALL

    # --- An I/O error mid-time-lapse: the disk starts failing every request after three files.
    io_error

    # --- A real disk filling up mid-time-lapse.
    full_disk

    # --- The reader of a stream goes away after 100 kB.
    rm -rf $ROOMY && mkdir -p $ROOMY && chmod 0777 $ROOMY
    su -s /bin/sh cam -c "$A capture $STILLS --count 1000 --output - 2> $ROOMY/err; echo \$? > $ROOMY/rc" | head -c 100000 > /dev/null
    cp $ROOMY/err /out/disk-reader-gone.err && cp $ROOMY/rc /out/disk-reader-gone.rc && : > /out/disk-reader-gone.out
    su -s /bin/sh cam -c "$A annotate $FOOTAGE --output - 2> $ROOMY/err; echo \$? > $ROOMY/rc" | head -c 100000 > /dev/null
    cp $ROOMY/err /out/disk-reader-gone-footage.err && cp $ROOMY/rc /out/disk-reader-gone-footage.rc && : > /out/disk-reader-gone-footage.out
}

# The I/O error case: an 8 MB ext2 file system on a loop device through device-mapper.
io_error() {
    image=/tmp/disk.img
    dd if=/dev/zero of=$image bs=1M count=8 2>/dev/null
    loop=$(losetup -f) && losetup "$loop" $image
    sectors=$((8 * 2048))
    dmsetup create --noudevsync faulty --table "0 $sectors linear $loop 0"
    [ -e /dev/mapper/faulty ] || dmsetup mknodes faulty
    mke2fs -q /dev/mapper/faulty
    mkdir -p $SMALL && mount -t ext2 /dev/mapper/faulty $SMALL && chmod 0777 $SMALL
    rm -rf $ROOMY && mkdir -p $ROOMY && chmod 0777 $ROOMY
    su -s /bin/sh cam -c "exec $A capture $STILLS --every 300ms --count 100 --output '$SMALL/eio-%3n.jpg'" \
        > /out/disk-io-error.out 2> /out/disk-io-error.err &
    capturer=$!
    WATCH=$capturer
    wait_for 60 "three files before the I/O error" files_at_least $SMALL '^eio-' 3
    WATCH=
    dmsetup suspend --noudevsync faulty
    dmsetup reload faulty --table "0 $sectors error"
    dmsetup resume --noudevsync faulty
    wait $capturer
    echo $? > /out/disk-io-error.rc
    # The disk works again (a cable reseated): what is left is read back, the file system
    # unmounted, and its image kept for the host's fsck.
    dmsetup suspend --noudevsync faulty
    dmsetup reload faulty --table "0 $sectors linear $loop 0"
    dmsetup resume --noudevsync faulty
    record io-error
    umount $SMALL
    dmsetup remove --noudevsync faulty
    losetup -d "$loop"
    cp $image $R/disk-io-error.img
}

# The full-disk case: a 3 MB ext4 file system (journal on, delayed allocation; made on the host,
# as busybox's mke2fs makes only ext2) on a loop device, a time-lapse of 640x480 stills until it is
# full; the image is kept for the host's fsck.
full_disk() {
    image=/tmp/full.img
    cp /app/full-ext4.img $image
    loop=$(losetup -f) && losetup "$loop" $image
    mkdir -p $SMALL && mount -t ext4 "$loop" $SMALL && chmod 0777 $SMALL
    fault full-disk "$A capture $STILLS --count 400 --output '$SMALL/tl-%3n.jpg'"
    umount $SMALL
    losetup -d "$loop"
    cp $image $R/disk-full-disk.img
}
