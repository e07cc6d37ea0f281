#!/bin/sh
# The soak (scripts/soak boots it): live annotated capture from vivid for /app/soak-minutes minutes
# against the host's gpsd (which the host stops and starts again every minute), with vivid's
# faults cycling: dropped buffers, buffers flagged as damaged, a failing VIDIOC_STREAMON at the
# next start, and an unplug every 2 minutes that --reconnect rides through. Every 10 s the
# process's resident memory and open descriptors are sampled into /out/soak/samples.txt
# ("SECONDS RSS_KB DESCRIPTORS ANONYMOUS_KB FILE_KB": VmRSS, then RssAnon, the heap's share, and
# RssFile); at the end Ctrl-C stops it, and its stderr (the summary) and JSON-lines log are in
# /out/soak/.
set -u
. ./guest-lib.sh
udev_apply
minutes=$(cat /app/soak-minutes)
GPSD=gpsd://10.0.2.2:$(cat /app/gpsd-port)
out=/out/soak
mkdir -p $out /tmp/soak && chmod 0777 /tmp/soak
export LLVM_PROFILE_FILE=/dev/null
su -s /bin/sh cam -c "exec /app/arcapture capture --size 320x180 --fps 10 --count 100000000 --reconnect --timeout 2 --location $GPSD --pois /app/pois.geojson --hfov 70 --orientation 230,0,0 --max-gap 2 --output - --json-log /tmp/soak/log.jsonl" \
    > /dev/null 2> $out/capture.err &
capturer=$!
WATCH=$capturer
wait_for 120 "the first frames" lines_at_least /tmp/soak/log.jsonl 5
pid=$(pidof arcapture)
began=$(up)
# The samples' zero on the monotonic clock the log's timestamp_ns counts (uptime, in seconds).
echo "$began" > $out/began.txt
elapsed() { awk -v began="$began" '{printf "%d", $1 - began}' /proc/uptime; }
sample() {
    rss=$(awk '/^VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null)
    anon=$(awk '/^RssAnon/ {print $2}' /proc/$pid/status 2>/dev/null)
    file=$(awk '/^RssFile/ {print $2}' /proc/$pid/status 2>/dev/null)
    fds=$(ls /proc/$pid/fd 2>/dev/null | wc -l)
    echo "$(elapsed) ${rss:-0} $fds ${anon:-0} ${file:-0}" >> $out/samples.txt
}
: > $out/samples.txt
: > $out/faults.txt
next_sample=0
next_fault=20
next_unplug=120
while [ "$(elapsed)" -lt $((minutes * 60)) ] && kill -0 $capturer 2>/dev/null; do
    now=$(elapsed)
    if [ "$now" -ge "$next_sample" ]; then sample; next_sample=$((next_sample + 10)); fi
    if [ "$now" -ge "$next_unplug" ]; then
        echo "$now unplug" >> $out/faults.txt
        rm -f /dev/v4l/by-path/*
        v4l2-ctl -d $C -c disconnect=1 2>/dev/null
        # The next start fails once (VIDIOC_STREAMON), which --reconnect rides through too.
        wait_for 60 "capture to notice the unplug" sh -c "! ls -l /proc/$pid/fd 2>/dev/null | grep -q /dev/video"
        sleep 1
        reload_vivid
        v4l2-ctl -d $C -c inject_vidioc_streamon_error=1 2>/dev/null
        next_unplug=$((next_unplug + 120))
    elif [ "$now" -ge "$next_fault" ]; then
        case $(((now / 20) % 3)) in
            0) echo "$now drops" >> $out/faults.txt
               v4l2-ctl -d $C -c percentage_of_dropped_buffers=30 2>/dev/null; sleep 5
               v4l2-ctl -d $C -c percentage_of_dropped_buffers=0 2>/dev/null ;;
            1) echo "$now damaged" >> $out/faults.txt
               v4l2-ctl -d $C -c inject_v4l2_buf_flag_error=1 2>/dev/null ;;
            2) echo "$now quiet" >> $out/faults.txt ;;
        esac
        next_fault=$((next_fault + 20))
    fi
    sleep 1
done
sample
WATCH=
kill -INT $capturer 2>/dev/null
wait $capturer
echo $? > $out/capture.rc
cp /tmp/soak/log.jsonl $out/
exit 0
