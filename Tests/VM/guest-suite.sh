#!/bin/sh
# The scenarios the VM suite asserts on, run in one boot (see Tests/arcaptureTests/VividVMTests.swift).
# Runs as root in the guest (busybox sh, cwd /app, ./arcapture is the freshly built binary) and
# writes, per scenario NAME: /out/NAME.out (stdout), /out/NAME.err (stderr), /out/NAME.rc (status),
# plus a few extra facts (holder PIDs, times) and the files arcapture wrote (copied from R at the
# end). The host-side tests read these files.
set -u
. ./guest-lib.sh
. ./unplug-stress.sh
. ./disk-faults.sh
. ./signal-stress.sh

udev_apply
echo "start $(up)" > /out/times.txt

# --- Listing.
run devices-json cam devices --json
run devices-text cam devices

# --- The smoke test on two sizes and two pixel formats, raw ioctls, plus automatic choice.
# The guest is emulated (TCG, one vCPU) and shares the host's cores: when the host is busy it can
# fall behind vivid, at any rate, and vivid then skips frames, which the check rightly reports. So
# no test expects a pass on the guest's pace: the ones about the check's verdicts assert that drops
# and rate follow the report's own figures (vivid stamps frames by sequence, so the rate counting
# drops is the applied one at any pace), and the ones about something else run pace-free.
run check-yuyv-640x480 cam check --format YUYV --size 640x480 --fps 10 --frames 15 --json --junit $R/check-yuyv.junit.xml
run check-nv12-1280x720 cam check --format NV12 --size 1280x720 --fps 5 --frames 8 --json
run check-auto-320x180 cam check --size 320x180 --frames 15 --json
# Pace-free (--max-drops, --fps-tolerance 100): these are about the report, libv4l2 and the path,
# not about whether the emulated guest keeps up, which the host's load decides.
run check-text cam check --size 640x360 --fps 10 --frames 10 --max-drops 1000 --fps-tolerance 100

# --- libv4l2's path, and a stable by-path link as the device.
run check-libv4l2 cam check --libv4l2 --format RGB3 --size 640x480 --fps 10 --frames 10 --json --max-drops 1000 --fps-tolerance 100
run check-by-path cam check --device /dev/v4l/by-path/platform-vivid.0-video-index0 --frames 10 --fps 10 --size 640x480 --json --max-drops 1000 --fps-tolerance 100

# --- A pixel format the driver does not have (vivid substitutes one instead of failing).
run check-mjpeg-absent cam check --format MJPG --frames 5 --json

# --- Denied: a user outside group video.
run denied outsider check --frames 5 --json

# --- Busy: another process streams from the node.
su -s /bin/sh cam -c "v4l2-ctl -d $C --stream-mmap --stream-count=100000 >/dev/null 2>&1" &
wait_for 60 "v4l2-ctl to stream" streams v4l2-ctl
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
su -s /bin/sh cam -c "exec ./arcapture check --format YUYV --size 320x180 --fps 25 --frames 75 --stream-to $R/buf-error.yuyv --json" \
    > /out/buf-error.out 2> /out/buf-error.err &
checker=$!
wait_for 60 "frames before the damaged buffer" has_data "$R/.buf-error.yuyv.*.tmp"
v4l2-ctl -d $C -c inject_v4l2_buf_flag_error=1
wait $checker
echo $? > /out/buf-error.rc

# --- VIDIOC_STREAMON fails.
v4l2-ctl -d $C -c inject_vidioc_streamon_error=1
run streamon-error cam check --frames 5 --json

# --- Every mode (--all-formats) of YUYV's six sizes, at most three tried: the largest goes first
# and fails at VIDIOC_STREAMON (vivid's fault is one-shot), then the smallest two stream; the
# check's own stream and restarts after them pass. Pace-free, and no 4K frame is ever made.
v4l2-ctl -d $C -c inject_vidioc_streamon_error=1
run all-formats cam check --all-formats --format YUYV --max-modes 3 --size 320x180 --frames 10 --cycles 1 --timeout 60 --max-drops 1000 --fps-tolerance 100 --json
v4l2-ctl -d $C -c inject_vidioc_streamon_error=1
run all-formats-text cam check --all-formats --format YUYV --max-modes 2 --size 320x180 --frames 5 --cycles 1 --timeout 60 --max-drops 1000 --fps-tolerance 100

# --- Ctrl-C while streaming: the session stops cleanly, exit 130, and --stream-to leaves no file.
su -s /bin/sh cam -c "exec ./arcapture check --format YUYV --size 320x180 --fps 25 --frames 5000 --stream-to $R/interrupted.yuyv --json" \
    > /out/interrupt.out 2> /out/interrupt.err &
checker=$!
wait_for 60 "frames before Ctrl-C" has_data "$R/.interrupted.yuyv.*.tmp"
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
# v4l2-ctl prints '>' for each frame it sends: the loop carries the pattern once a few have gone.
v4l2-ctl -d $O --stream-out-mmap --stream-from=/app/pattern-640x480.yuyv --stream-loop > $R/feeder.log 2>&1 &
feeder=$!
wait_for 60 "the pattern on vivid's output" says $R/feeder.log '>>>'
run loop cam check --format YUYV --size 640x480 --frames 5 --stream-to $R/loop.yuyv --json
kill $feeder
wait
v4l2-ctl -d $C -c loop_video=0 -c osd_text_mode=0 -i 0 >/dev/null

# --- Unplug while streaming: vivid's disconnect control unregisters every node.
su -s /bin/sh cam -c "exec ./arcapture check --format YUYV --size 320x180 --fps 25 --frames 5000 --stream-to $R/unplugged.yuyv --json" \
    > /out/unplug.out 2> /out/unplug.err &
checker=$!
wait_for 60 "frames before the unplug" has_data "$R/.unplugged.yuyv.*.tmp"
v4l2-ctl -d $C -c disconnect=1
wait $checker
echo $? > /out/unplug.rc
ls -a $R > /out/unplug.files
reload_vivid

# === arcapture capture ===
CAP=$R/capture
mkdir -p $CAP && chmod 0777 $CAP
# capture NAME ARGS...: runs `arcapture capture` as cam in $CAP, recording out, err and status.
capture() {
    name=$1
    shift
    su -s /bin/sh cam -c "cd $CAP && /app/arcapture capture $*" > "/out/$name.out" 2> "/out/$name.err"
    echo $? > "/out/$name.rc"
}

# Stills at two sizes (a still settles first), and a time-lapse with its log.
capture still-vga --size 640x480 --output still-vga.jpg
capture still-hd --size 1280x720 --format YUYV --quality 80 --output still-hd.jpg
capture lapse --size 640x360 --fps 25 --every 200ms --count 6 --output "lapse-%3n.jpg" --json-log lapse.jsonl
# Streams on stdout: MJPEG (concatenated JPEGs) and Y4M.
su -s /bin/sh cam -c "/app/arcapture capture --size 320x180 --fps 30 --count 45 --output - --json-log $CAP/stream.jsonl" \
    > /out/stream.mjpg 2> /out/stream.err
echo $? > /out/stream.rc
su -s /bin/sh cam -c "/app/arcapture capture --size 320x180 --fps 30 --count 12 --output - --format-out y4m" \
    > /out/stream.y4m 2> /out/y4m.err
echo $? > /out/y4m.rc
# Controls set by percentage, number and menu item name, then read back by v4l2-ctl; a bad value.
capture controls --size 320x180 --set brightness=60% --set contrast=10 --set test_pattern=1x1_checkers --count 2 --output "ctl-%n.jpg"
v4l2-ctl -d $C -C brightness -C contrast -C test_pattern > /out/controls.readback
capture control-bad --set brightness=300 --output bad.jpg
v4l2-ctl -d $C -c brightness=128 -c contrast=128 -c test_pattern=0

# Ctrl-C during a fast capture to files: every file left is whole, no temporary file remains.
su -s /bin/sh cam -c "cd $CAP && exec /app/arcapture capture --size 640x480 --fps 25 --duration 60s --output 'int-%4n.jpg'" \
    > /out/capture-int.out 2> /out/capture-int.err &
capturer=$!
wait_for 60 "five frames before Ctrl-C" files_at_least $CAP '^int-' 5
kill -INT "$(pidof arcapture)"
wait $capturer
echo $? > /out/capture-int.rc
ls -a $CAP > /out/capture-int.files

# A full disk: a 300 kB file system fills up; the files written before are whole.
mkdir -p /tmp/small && mount -t tmpfs -o size=300k tmpfs /tmp/small && chmod 0777 /tmp/small
su -s /bin/sh cam -c "cd /tmp/small && /app/arcapture capture --size 640x480 --fps 25 --count 100 --quality 95 --output 'full-%3n.jpg'" \
    > /out/full.out 2> /out/full.err
echo $? > /out/full.rc
ls -a /tmp/small > /out/full.files
mkdir -p $R/full && cp /tmp/small/*.jpg $R/full/ 2>/dev/null
umount /tmp/small

# The disk and output fault matrix (disk-faults.sh).
disk_faults

# Unplug during capture, without --reconnect: 69.
su -s /bin/sh cam -c "cd $CAP && exec /app/arcapture capture --size 320x180 --fps 25 --count 5000 --output 'unplug-%4n.jpg'" \
    > /out/unplug-capture.out 2> /out/unplug-capture.err &
capturer=$!
wait_for 60 "frames before the unplug" files_at_least $CAP '^unplug-' 3
v4l2-ctl -d $C -c disconnect=1
wait $capturer
echo $? > /out/unplug-capture.rc
reload_vivid

# Unplug with --reconnect. As on a board, the camera's udev link goes first, then the device; it
# comes back when vivid is reloaded and "udev" applies the group and the link again. (vivid
# re-registers a disconnected node by itself once its last user closes it, so the link is what
# tells the camera is away.)
su -s /bin/sh cam -c "/app/arcapture capture --size 320x180 --fps 25 --count 150 --reconnect --timeout 2 --output - --json-log $CAP/reconnect.jsonl" \
    > /out/reconnect.mjpg 2> /out/reconnect.err &
capturer=$!
wait_for 60 "frames before the unplug" lines_at_least $CAP/reconnect.jsonl 10
rm -f /dev/v4l/by-path/*
v4l2-ctl -d $C -c disconnect=1
wait_for 60 "capture to notice the unplug" says /out/reconnect.err "waiting for the camera to come back"
sleep 1   # the camera stays away at least this long: the logged gap is at least a second
reload_vivid
wait $capturer
echo $? > /out/reconnect.rc

# Live annotated capture (the GeoAR view): vivid as the camera and a real gpsd on the host
# (gpsfake replaying a boat's log, at 10.0.2.2 through QEMU's user network). The host stops gpsd
# and starts it again when this script asks (/out/gpsd-request), so the phases and the frames
# without a pose can be seen.
gpsd_request() {  # stop|start, then waits until the host says it is done
    echo "$1" > /out/gpsd-request
    wait_for 60 "the host to $1 gpsd" says /out/gpsd-state "$1-done"
}
count_at_least() { [ -f "$1" ] && [ "$(grep -c "$2" "$1")" -ge "$3" ]; }   # FILE REGEX N
GPSD=gpsd://10.0.2.2:$(cat /app/gpsd-port)
# A second client records what gpsd sent (gpsd and arcapture's own NMEA reader read this log's
# mixed sentences a little differently): the track the poses are checked against.
./arcapture location "$GPSD" --json --duration 600 > /out/e2e-fixes.jsonl 2> /out/e2e-fixes.err &
recorder=$!
su -s /bin/sh cam -c "cd $CAP && exec /app/arcapture capture --size 320x180 --fps 10 --count 100000 --location $GPSD --pois /app/e2e-pois.geojson --hfov 70 --orientation 230,0,0 --height-above-ground 2 --max-gap 2 --sidecar $CAP/e2e.jsonl --output 'e2e-%4n.jpg'" \
    > /out/e2e.out 2> /out/e2e.err &
e2e=$!
WATCH=$e2e
wait_for 120 "annotated frames" count_at_least $CAP/e2e.jsonl '"pose":{' 10
gpsd_request stop
wait_for 60 "the view to lose the position" says /out/e2e.err "interrupted: the location source has no position"
wait_for 60 "frames without a pose" count_at_least $CAP/e2e.jsonl '"no_pose"' 5
annotated=$(grep -c '"pose":{' $CAP/e2e.jsonl)
# gpsd stays away longer than --max-gap, so no pose is interpolated across the outage (gpsfake
# starts its log over: the boat "jumps" back to where it began).
sleep 3
gpsd_request start
wait_for 60 "the view to run again" count_at_least /out/e2e.err '^running' 2
wait_for 60 "annotated frames after the restart" count_at_least $CAP/e2e.jsonl '"pose":{' $((annotated + 5))
WATCH=
kill -INT $e2e
wait $e2e
echo $? > /out/e2e.rc
kill -INT $recorder
wait $recorder
ls $CAP > /out/e2e.files

# --- `arcapture serve`: the live view over HTTP on the guest's loopback, read by busybox wget.
# A fixed position with the buoys ahead (bearings 218-242 degrees, the camera at 230) so every
# marker is in view; the host checks the frames' pixels for the selection's colour.
SERVE=http://127.0.0.1:8080
state_says() { wget -q -O /tmp/serve-state.json $SERVE/state && grep -q "$1" /tmp/serve-state.json; }
published() { wget -q -O - $SERVE/state | sed -n 's/.*"published":\([0-9]*\).*/\1/p'; }
published_beyond() { [ "$(published)" -gt "$1" ]; }
count_of() { wget -q -O - $SERVE/state | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
count_beyond() { [ "$(count_of "$1")" -gt "$2" ]; }
# Through the camera's by-path link, as a board's service names it: an unplug removes the link, and
# vivid, which registers its nodes again as soon as their last user closes them, stays away.
LINK=$(ls /dev/v4l/by-path/* | head -n 1)
su -s /bin/sh cam -c "exec /app/arcapture serve --device $LINK --idle-slowdown --reconnect --size 320x180 --fps 10 --location 52.850155,5.313617,0 --pois /app/e2e-pois.geojson --hfov 70 --orientation 230,0,0 --height-above-ground 2" \
    > /out/serve.out 2> /out/serve.err &
server=$!
WATCH=$server
wait_for 60 "the server to listen" says /out/serve.err "serving $SERVE/"
wait_for 120 "annotated frames to be served" state_says '"annotated":[1-9]'
# --idle-slowdown: no one has watched the stream yet, so most frames were skipped; a watcher
# brings every frame back from the next one.
wait_for 120 "frames skipped with no one watching" count_beyond idle_skipped 20
wget -q -O /out/serve-idle-state.json $SERVE/state
wget -q -O /tmp/watcher.mjpg "$SERVE/stream?key=watcher" &
watcher=$!
wait_for 60 "the watcher in /state" state_says '"key":"watcher"'
wget -q -O /out/serve-watched-1.json $SERVE/state
first=$(published)
wait_for 60 "frames while watched" published_beyond $((first + 10))
wget -q -O /out/serve-watched-2.json $SERVE/state
kill $watcher
wget -q -O /out/serve-state.json $SERVE/state
wget -q -S -O /out/serve-snapshot.jpg $SERVE/snapshot 2> /out/serve-snapshot.headers
wget -q -O /out/serve-select.json --header 'Content-Type: application/json' --post-data '{"ids":["p2"]}' $SERVE/select
wait_for 30 "the selection in /state" state_says '"selected":\["p2"\]'
# Two frames drawn after the selection, then the newest one.
after=$(published)
wait_for 60 "frames after the selection" published_beyond $((after + 2))
wget -q -O /out/serve-selected.jpg $SERVE/snapshot
wget -q -O /out/serve-selected-state.json $SERVE/state
# The stream, read until 60 kB came (several 320x180 frames), then wget is cut off.
wget -q -O - "$SERVE/stream?key=guest" | head -c 60000 > /out/serve-stream.mjpg
wget -q -O /out/serve-missing.txt $SERVE/nothing 2> /out/serve-missing.err
echo $? > /out/serve-missing.rc
wget -q -O /out/serve-cleared.json --header 'Content-Type: application/json' --post-data '' $SERVE/select 2> /out/serve-badselect.err
echo $? > /out/serve-badselect.rc
# The camera unplugged while a client watches: placeholder frames say so, the client stays
# connected, and the camera's frames come again on the same connection once it is back.
wget -q -O /out/serve-away.mjpg "$SERVE/stream?key=away" &
away=$!
wait_for 60 "the client in /state" state_says '"key":"away"'
before=$(published)
wait_for 60 "frames before the unplug" published_beyond $((before + 3))
pid=$(pidof arcapture)
rm -f /dev/v4l/by-path/*
v4l2-ctl -d $C -c disconnect=1 2>/dev/null
wait_for 60 "serve to notice the unplug" sh -c "! ls -l /proc/$pid/fd 2>/dev/null | grep -q /dev/video"
wait_for 60 "placeholder frames" count_beyond placeholders 2
wget -q -O /out/serve-away-state.json $SERVE/state
# Plugged in again: udev gives the node to group video and makes the link.
udev_apply
back=$(published)
wait_for 120 "frames after the replug" published_beyond $((back + 5))
wget -q -O /out/serve-back-state.json $SERVE/state
kill $away
WATCH=
kill -INT $server
wait $server
echo $? > /out/serve.rc

# --- The page in a real browser: the host's chromium (Tests/Browser/live-view.py, run by the host
# when /out/browser-request says ready) reaches this server through QEMU's forwarded port, so it
# listens on every network of the guest (and warns that it does).
su -s /bin/sh cam -c "exec /app/arcapture serve --listen 0.0.0.0:8080 --size 320x180 --fps 10 --location 52.850155,5.313617,0 --pois /app/e2e-pois.geojson --hfov 70 --orientation 230,0,0 --height-above-ground 2" \
    > /out/browser.out 2> /out/browser.err &
server=$!
WATCH=$server
wait_for 60 "the browser's server to listen" says /out/browser.err "serving http://0.0.0.0:8080/"
wait_for 120 "annotated frames for the browser" state_says '"annotated":[1-9]'
echo ready > /out/browser-request
wait_for 900 "the host's browser to finish" test -e /out/browser-done
WATCH=
kill -INT $server
wait $server
echo $? > /out/browser.rc

# --- The view's own selection in the page: --select-center selects the buoy nearest the frame's
# centre frame by frame, and the page shows it selected as it shows a click's.
su -s /bin/sh cam -c "exec /app/arcapture serve --listen 0.0.0.0:8080 --size 320x180 --fps 10 --location 52.850155,5.313617,0 --pois /app/e2e-pois.geojson --hfov 70 --orientation 230,0,0 --height-above-ground 2 --select-center" \
    > /out/browser-center.out 2> /out/browser-center.err &
server=$!
WATCH=$server
wait_for 60 "the select-center server to listen" says /out/browser-center.err "serving http://0.0.0.0:8080/"
wait_for 120 "annotated frames for the browser" state_says '"annotated":[1-9]'
echo ready > /out/browser-center-request
wait_for 900 "the host's browser to finish" test -e /out/browser-center-done
WATCH=
kill -INT $server
wait $server
echo $? > /out/browser-center.rc

# Camera switch: two vivid instances; SIGUSR1 moves capture to the next --device.
rmmod vivid
insmod /modules/vivid.ko n_devs=2 node_types=0x1,0x1
udev_apply
# The view's switch closes the first camera while it runs on: the first node leaves the process
# (no descriptor, no mapped buffer) while the second is in it. Then 20 frames from the second, and
# Ctrl-C ends the run (no count: a count would race the checks on a slow guest).
holds() { ls -l "/proc/$1/fd" | grep -q " $2\$" || grep -q " $2\$" "/proc/$1/maps"; }   # PID NODE
switched() { holds "$1" /dev/video1 && ! holds "$1" /dev/video0; }
su -s /bin/sh cam -c "/app/arcapture capture --device /dev/video0,/dev/video1 --size 320x180 --fps 25 --output - --json-log $CAP/switch.jsonl" \
    > /out/switch.mjpg 2> /out/switch.err &
switcher=$!
wait_for 60 "frames from the first camera" lines_at_least $CAP/switch.jsonl 20
capturer=$(pidof arcapture)
holds "$capturer" /dev/video0 && echo "before: /dev/video0 held" > /out/switch-nodes.txt
kill -USR1 "$capturer"
wait_for 60 "the first camera closed, the second open" switched "$capturer" \
    && echo "after: /dev/video1 held, /dev/video0 released" >> /out/switch-nodes.txt
logged=$(wc -l < $CAP/switch.jsonl)
wait_for 60 "frames from the second camera" lines_at_least $CAP/switch.jsonl $((logged + 20))
kill -INT "$capturer"
wait $switcher
echo $? > /out/switch.rc
reload_vivid

# --- A camera that appears while requestAccess waits: the node appears root-only, then "udev"
# gives it to group video, as on a real board.
rmmod vivid
echo "waiting $(up)" >> /out/times.txt
su -s /bin/sh cam -c "./arcapture check --wait 30 --frames 5 --size 640x480 --fps 10 --json" \
    > /out/appear.out 2> /out/appear.err &
waiter=$!
wait_for 60 "check to wait for the camera" says /out/appear.err "waiting up to 30 s"
sleep 2   # the camera is away at least this long after the check began to wait
echo "plugged $(up)" >> /out/times.txt
# shellcheck disable=SC2046
insmod /modules/vivid.ko $(cat /etc/arcapture-vm/vivid-params)
sleep 0.5
udev_apply
wait $waiter
echo $? > /out/appear.rc
echo "end $(up)" >> /out/times.txt

# --- Thirty unplugs at random moments, from before the open to mid-stream (scripts/stress-unplug
# runs 500): no crash, no hang, no temporary file left. Thirty rather than fifty since the suite
# has fifteen minutes: each takes 2.5 s of the guest's time on a quiet host and 4 s beside the
# other VM and the host's tests.
unplug_stress 30 /out/unplug-stress

# --- Twenty signals (SIGINT, SIGTERM) at random moments of a live time-lapse: 130 for both, or 0
# when it had finished; only whole files.
signal_stress 20 /out/signal-stress
cp -r $R/. /out/
exit 0
