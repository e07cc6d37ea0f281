#!/bin/sh
# The guest half of bench/serve/compare-ustreamer.sh (busybox sh, as root, in /app): vivid at
# SIZE and FPS, served in turn by uStreamer and by arcapture serve (without and with the overlay),
# each to 1 and to 10 clients: one mjpeg-client measuring, the others busybox wget. Per run,
# /out/NAME-CLIENTS.txt holds the client's line and the server's CPU ticks over it.
#
# Then the same servers on a v4l2loopback camera fed by loopback-writer --stamped (runs NAME-lb): each frame
# carries its number, the writer logs when it wrote it and the client when it received it, both
# on this guest's CLOCK_MONOTONIC, so capture to client is measured on one clock for both servers
# (vivid's buffer stamps and uStreamer's own are not the same clock; see compare-ustreamer.sh).
set -u
. ./guest-lib.sh
udev_apply
SIZE=$(cat /app/size) FPS=$(cat /app/fps) SECONDS=$(cat /app/seconds)
export LLVM_PROFILE_FILE=/dev/null
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
listening() { wget -q -O /dev/null "http://127.0.0.1:$1/snapshot" 2>/dev/null || wget -q -O /dev/null "http://127.0.0.1:$1/?action=snapshot"; }
measure() {  # NAME PID PORT CLIENTS
    others=""
    i=1
    while [ "$i" -lt "$4" ]; do
        wget -q -O /dev/null "http://127.0.0.1:$3/stream" &
        others="$others $!"
        i=$((i + 1))
    done
    before=$(ticks "$2")
    if [ -n "${WRITES:-}" ]; then
        /app/mjpeg-client "$3" "$SECONDS" "/out/$1-$4.arrivals" > "/out/$1-$4.txt"
    else
        /app/mjpeg-client "$3" "$SECONDS" > "/out/$1-$4.txt"
    fi
    after=$(ticks "$2")
    echo "cpu_ticks $((after - before)) hz 100" >> "/out/$1-$4.txt"
    [ -n "${WRITES:-}" ] && one_clock "$WRITES" "/out/$1-$4.arrivals" >> "/out/$1-$4.txt"
    # shellcheck disable=SC2086
    [ -n "$others" ] && kill $others 2>/dev/null
    sleep 1
}
# one_clock WRITES ARRIVALS: each frame received, matched by number to its write: the median and
# 99th percentile of received minus written, in ms, and how many frames were matched.
one_clock() {
    awk 'NR == FNR { written[$1] = $2; next } ($1 in written) { printf "%.3f\n", ($2 - written[$1]) * 1000 }' "$1" "$2" |
        sort -n > "$2.ms"
    awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "clock_latency_median_ms -1 clock_latency_p99_ms -1 matched 0"; exit }
        p = int(NR * 0.99); if (p < 1) p = 1; if (p > NR) p = NR
        printf "clock_latency_median_ms %.2f clock_latency_p99_ms %.2f matched %d\n", v[int((NR + 1) / 2)], v[p], NR }' "$2.ms"
}
run_server() {  # NAME PORT COMMAND...
    name=$1 port=$2
    shift 2
    "$@" > "/out/$name.out" 2> "/out/$name.err" &
    pid=$!
    WATCH=$pid
    wait_for 120 "$name to serve" listening "$port"
    measure "$name" "$pid" "$port" 1
    measure "$name" "$pid" "$port" 10
    WATCH=
    kill -INT "$pid"
    wait "$pid"
    sleep 1
}
width=${SIZE%x*}
height=${SIZE#*x}
run_server ustreamer 8081 /app/ustreamer --device /dev/video0 --resolution "$SIZE" --format YUYV --desired-fps "$FPS" \
    --encoder CPU --workers 1 --quality 80 --host 127.0.0.1 --port 8081
run_server arcapture 8080 /app/arcapture serve --device /dev/video0 --size "$SIZE" --format YUYV --fps "$FPS" \
    --quality 80 --listen 127.0.0.1:8080
run_server arcapture-overlay 8080 /app/arcapture serve --device /dev/video0 --size "$SIZE" --format YUYV --fps "$FPS" \
    --quality 80 --listen 127.0.0.1:8080 --location 60.1695,24.9525,15 --pois /app/pois.geojson --hfov 70 \
    --orientation 250,0,0 --max-markers 12

# --- One clock: the loopback camera, written by loopback-writer --stamped, read by each server in turn.
insmod /app/v4l2loopback.ko video_nr=10 exclusive_caps=1 card_label="stamped camera" || exit 125
L=/dev/video10
has_format() { [ -n "$(cat /sys/devices/virtual/video4linux/video10/format)" ]; }
run_loopback() {  # NAME PORT COMMAND...
    WRITES=/out/$1-writes.txt
    /app/loopback-writer $L YUYV "$width" "$height" "$FPS" --stamped "$WRITES" 2> "/out/$1-writer.err" &
    writer=$!
    WATCH=$writer wait_for 60 "the stamped camera ($1)" has_format
    run_server "$@"
    kill "$writer"
    wait "$writer"
    WATCH="" wait_for 30 "the stamped camera to go ($1)" sh -c '[ -z "$(cat /sys/devices/virtual/video4linux/video10/format)" ]'
    WRITES=
}
# No rate option for either: the writer sets the rate, and the loopback cannot change it. Given
# --desired-fps, uStreamer says "Changing HW FPS is not supported" and then skips frames itself to
# hold the rate: a quarter of them at 5 fps here, and about 60 ms more latency for the rest.
run_loopback ustreamer-lb 8081 /app/ustreamer --device $L --resolution "$SIZE" --format YUYV \
    --encoder CPU --workers 1 --quality 80 --host 127.0.0.1 --port 8081
run_loopback arcapture-lb 8080 /app/arcapture serve --device $L --size "$SIZE" --format YUYV \
    --quality 80 --listen 127.0.0.1:8080
