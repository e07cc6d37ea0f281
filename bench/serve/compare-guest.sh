#!/bin/sh
# The guest half of bench/serve/compare-ustreamer.sh (busybox sh, as root, in /app): vivid at
# SIZE and FPS, served in turn by uStreamer and by arcapture serve (without and with the overlay),
# each to 1 and to 10 clients: one mjpeg-client measuring, the others busybox wget. Per run,
# /out/NAME-CLIENTS.txt holds the client's line and the server's CPU ticks over it.
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
    /app/mjpeg-client "$3" "$SECONDS" > "/out/$1-$4.txt"
    after=$(ticks "$2")
    echo "cpu_ticks $((after - before)) hz 100" >> "/out/$1-$4.txt"
    # shellcheck disable=SC2086
    [ -n "$others" ] && kill $others 2>/dev/null
    sleep 1
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
