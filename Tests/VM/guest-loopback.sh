#!/bin/sh
# The v4l2loopback scenarios (see Tests/arcaptureTests/VividLoopbackTests.swift), in a boot of
# their own: MJPEG capture from a real driver. Loads ./v4l2loopback.ko next to vivid (which loaded
# videodev) as /dev/video10 with exclusive_caps=1, as OBS and most guides set it up, and feeds it
# with ./loopback-writer (an independent producer) the frames make-loopback-frames.py made.
# Writes NAME.out/.err/.rc per scenario like guest-suite.sh, and the writer's log per run.
set -u
. ./guest-lib.sh
L=/dev/video10
SYSFS=/sys/devices/virtual/video4linux/video10
V=/dev/video11

# Two loopback devices: video10, a camera fed by the writer; video11, arcapture's virtual camera.
insmod ./v4l2loopback.ko devices=2 video_nr=10,11 exclusive_caps=1,1 \
    'card_label="arcapture test camera,arcapture virtual camera"' || exit 125
udev_apply

WRITER=""
# Whether the loopback (video10, or the one named) has a producer's format (sysfs files always
# have a size: read the text).
has_format() { [ -n "$(cat "/sys/devices/virtual/video4linux/${1:-video10}/format")" ]; }
no_format() { ! has_format "$@"; }
# writer NAME WIDTH HEIGHT FPS FRAMES: starts the producer and waits until the capture side sees
# its format (before that, the node is an output device: pitfall 3 of the loopback notes).
writer() {
    ./loopback-writer $L MJPG "$2" "$3" "$4" "$5" 2> "/out/$1-writer.log" &
    WRITER=$!
    WATCH=$WRITER wait_for 60 "the writer's format ($1)" has_format
}
stop_writer() {
    kill "$WRITER" 2>/dev/null
    wait "$WRITER"
    # Closed: the node is an output device again once the driver has seen the writer go.
    WATCH="" wait_for 30 "the loopback to be free" no_format
}

# --- Listing: before a writer the node can only be written to; while one writes, it is a camera.
run lb-devices-before cam devices --json
run lb-devices-before-text cam devices

# --- 1280x720 MJPEG at 10 fps: a plain reader first (v4l2-ctl), then the check right after it,
# as the issue measured (the check then stalled after 5 frames and counted 34 frames dropped).
writer lb10 1280 720 10 good-1280x720.frames
run lb-devices-while cam devices --json
run lb-devices-while-text cam devices
v4l2-ctl -d $L --stream-mmap --stream-count=30 --stream-to=$R/lb-v4l2ctl.mjpeg > /out/lb-v4l2ctl.out 2> /out/lb-v4l2ctl.err
echo $? > /out/lb-v4l2ctl.rc
run lb-check-10 cam check --device $L --format MJPG --frames 30 --json
run lb-check-10-again cam check --device $L --format MJPG --frames 30 --json
# A still (passed through: the camera's JPEG with the standard tables added where it had none),
# streams into ffprobe on the host, a time-lapse and live annotation from the same camera.
LB=$R/lb
mkdir -p $LB && chmod 0777 $LB
run lb-still cam capture --device $L --output $LB/still.jpg
su -s /bin/sh cam -c "/app/arcapture capture --device $L --count 20 --output - --json-log $LB/stream.jsonl" \
    > $LB/stream.mjpeg 2> /out/lb-stream.err
echo $? > /out/lb-stream.rc
su -s /bin/sh cam -c "/app/arcapture capture --device $L --count 6 --output - --format-out y4m" \
    > $LB/stream.y4m 2> /out/lb-y4m.err
echo $? > /out/lb-y4m.rc
run lb-lapse cam capture --device $L --every 500ms --count 4 --output "$LB/lapse-%n.jpg" --json-log $LB/lapse.jsonl
stop_writer
# Live annotation from a camera whose every frame has restart markers: each can be spliced,
# whichever frames a loaded guest draws.
writer lbrst 1280 720 10 restart-1280x720.frames
run lb-annotate cam capture --device $L --count 5 --location 52.850155,5.313617 --pois e2e-pois.geojson \
    --hfov 70 --orientation 230,0,0 --height-above-ground 2 --sidecar $LB/annotate.jsonl --output "$LB/ann-%n.jpg"
stop_writer

# --- At the camera's full rate, 1280x720 and 1920x1080: the check keeps up (it decodes off the
# capture path) and every check passes.
writer lb720 1280 720 30 good-1280x720.frames
run lb-check-720p30 cam check --device $L --format MJPG --frames 60 --json
stop_writer
writer lb1080 1920 1080 30 good-1920x1080.frames
run lb-check-1080p30 cam check --device $L --format MJPG --frames 60 --json
stop_writer

# --- The picture: a capped lens (dark noise, every frame different) and a frozen camera (one
# frame again and again) each fail the check's picture verdict.
writer lbdark 640 480 10 dark-640x480.frames
run lb-check-dark cam check --device $L --format MJPG --frames 10 --json
stop_writer
writer lbfrozen 640 480 10 frozen-640x480.frames
run lb-check-frozen cam check --device $L --format MJPG --frames 10 --json
stop_writer

# --- Damaged frames among good ones (truncated, bit-flipped, zeros, larger than the buffer):
# each dropped and counted, the stream goes on, no crash.
writer lbbad 1280 720 5 bad-1280x720.frames
run lb-bad-check cam check --device $L --format MJPG --frames 40 --stream-to $R/lb-bad.mjpeg --json
su -s /bin/sh cam -c "/app/arcapture capture --device $L --count 24 --output - --json-log $LB/bad.jsonl" \
    > $LB/bad.mjpeg 2> /out/lb-bad-capture.err
echo $? > /out/lb-bad-capture.rc
stop_writer

# --- A virtual camera out: arcapture writes to video11, v4l2-ctl reads it back. Without its text
# overlay, vivid's colour bars are the same in every frame, so what v4l2-ctl reads must equal
# what a capture of the same camera gives: its raw YUYV frames (check --stream-to) when nothing is
# drawn, the Y4M stream of the same overlay (compressed to limited range) when POIs are drawn.
v4l2-ctl -d $C --set-ctrl=osd_text_mode=2 > /out/vcam-osd.out 2>&1
run vcam-reference cam check --device $C --format YUYV --size 640x480 --fps 10 --frames 3 --stream-to $R/vcam-reference.yuyv --json
# virtual_camera NAME READ ARGS...: runs `capture ARGS --output v4l2:$V` until v4l2-ctl has read
# READ frames from video11 (after skipping one), and ffmpeg (the host's, see host-ffmpeg in
# vivid-vm.sh) READ + 1 more, each packet copied as it came (no decoding) to a file of its own,
# NAME.ffmpeg-01 onwards (the test skips the first, as v4l2-ctl does: the buffer v4l2loopback
# hands a new reader first is the whole buffer long, with an older frame's bytes after the JPEG),
# then stops it with Ctrl-C.
virtual_camera() {
    name=$1 count=$2
    shift 2
    su -s /bin/sh cam -c "exec /app/arcapture capture $* --duration 10m --output v4l2:$V" \
        > "/out/$name.out" 2> "/out/$name.err" &
    pid=$!
    WATCH=$pid wait_for 120 "the virtual camera's format ($name)" has_format video11
    cat /sys/devices/virtual/video4linux/video11/format > "/out/$name-format.txt"
    v4l2-ctl -d $V --all > "/out/$name-all.txt" 2>&1
    v4l2-ctl -d $V --stream-mmap --stream-count="$count" --stream-skip=1 --stream-to="$R/$name.read" \
        > "/out/$name-read.out" 2> "/out/$name-read.err"
    echo $? > "/out/$name-read.rc"
    host-ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -i $V -frames:v $((count + 1)) -c:v copy -f image2 \
        "$R/$name.ffmpeg-%02d" > "/out/$name-ffmpeg.out" 2> "/out/$name-ffmpeg.err"
    echo $? > "/out/$name-ffmpeg.rc"
    kill -INT "$pid"
    wait "$pid"
    echo $? > "/out/$name.rc"
    WATCH="" wait_for 30 "the virtual camera to be free ($name)" no_format video11
}
virtual_camera vcam 5 --device $C --format YUYV --size 640x480 --fps 10
OVERLAY="--location 52.850155,5.313617 --pois e2e-pois.geojson --hfov 70 --orientation 230,0,0 --height-above-ground 2"
virtual_camera vcam-annotated 3 --device $C --format YUYV --size 640x480 --fps 10 $OVERLAY
su -s /bin/sh cam -c "/app/arcapture capture --device $C --format YUYV --size 640x480 --fps 10 --count 3 $OVERLAY --output - --format-out y4m" \
    > $R/vcam-annotated-reference.y4m 2> /out/vcam-annotated-reference.err
echo $? > /out/vcam-annotated-reference.rc
# MJPEG in, MJPEG out: the loopback camera's frames through arcapture to the virtual camera.
writer lbvcam 1280 720 10 good-1280x720.frames
virtual_camera vcam-mjpeg 5 --device $L --format-out mjpeg
stop_writer
# Footage to the virtual camera, at its own rate (48 frames at 8 fps), against the Y4M the same
# annotation writes to a file.
FOOTAGE="harbour.mjpeg --track harbour.gpx --start 2022-08-14T11:12:32Z --fps 8 --heading-from-course \
    --camera harbour-camera.yaml --height-above-ground 3 --pois harbour-pois.geojson --max-markers 12"
began=$(up)
su -s /bin/sh cam -c "exec /app/arcapture annotate $FOOTAGE --output v4l2:$V" > /out/vcam-footage.out 2> /out/vcam-footage.err &
pid=$!
WATCH=$pid wait_for 120 "footage on the virtual camera" has_format video11
cat /sys/devices/virtual/video4linux/video11/format > /out/vcam-footage-format.txt
v4l2-ctl -d $V --stream-mmap --stream-count=8 --stream-skip=1 --stream-to=$R/vcam-footage.read \
    > /out/vcam-footage-read.out 2> /out/vcam-footage-read.err
echo $? > /out/vcam-footage-read.rc
end_of $pid 300
echo "$STATUS" > /out/vcam-footage.rc
awk -v began="$began" '{printf "%.3f\n", $1 - began}' /proc/uptime > /out/vcam-footage-seconds.txt
WATCH="" wait_for 30 "the virtual camera to be free (footage)" no_format video11
su -s /bin/sh cam -c "/app/arcapture annotate $FOOTAGE --output $R/vcam-footage-reference.y4m" \
    > /out/vcam-footage-reference.out 2> /out/vcam-footage-reference.err
echo $? > /out/vcam-footage-reference.rc
# Pacing: six frames at 2 fps take at least 2.5 s from the first to the last (the guest draws
# them at about 5 fps), with no reader attached.
PACED="clip6.mjpeg --track harbour.gpx --start 2022-08-14T11:12:32Z --fps 2 --heading-from-course \
    --camera harbour-camera.yaml --height-above-ground 3 --pois harbour-pois.geojson --max-markers 12"
su -s /bin/sh cam -c "/app/arcapture annotate $PACED --output v4l2:$V" > /out/vcam-paced.out 2> /out/vcam-paced.err
echo $? > /out/vcam-paced.rc
WATCH="" wait_for 30 "the virtual camera to be free (paced)" no_format video11
# Refusals: another writer on the node (75), a node that is no output (69), none (69), a format
# a virtual camera does not take (64).
./loopback-writer $V MJPG 640 480 10 good-1280x720.frames 2> /out/vcam-busy-writer.log &
OTHER=$!
WATCH=$OTHER wait_for 60 "the other writer on video11" has_format video11
run vcam-busy cam capture --device $C --size 640x480 --count 2 --output v4l2:$V
kill "$OTHER"
wait "$OTHER"
run vcam-not-output cam capture --device $C --size 640x480 --count 2 --output v4l2:$C
run vcam-missing cam capture --device $C --count 2 --output v4l2:/dev/video42
run vcam-bad-format cam capture --device $C --count 2 --output v4l2:$V --format-out y4m

dmesg > /out/lb-dmesg.txt
cp -r $R/. /out/
exit 0
