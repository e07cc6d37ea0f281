#!/bin/sh
# Helpers the guest scripts share (sourced by guest-suite.sh and stress-guest.sh; busybox sh, as
# root, in /app). Sets C (vivid's capture node), O (its output node) and R (files arcapture writes).
C=/dev/video0
O=/dev/video1
# Files arcapture itself writes (--junit, --stream-to, coverage counters) go to R, in the guest's
# memory, and are copied to /out at the end by root: when QEMU runs as a normal user, the 9p share
# lets the guest's root write but not its other users.
R=/tmp/results
# Seconds since the guest booted (guest-loopback.sh times the virtual camera's footage with it: it
# once called an up that only guest-suite.sh defined, so its 'took at least 2.5 s' measured the
# uptime and could not fail).
up() { cut -d' ' -f1 /proc/uptime; }
mkdir -p $R/profiles && chmod -R 0777 $R
# A test build is instrumented for coverage: each run writes its counters to R/profiles, which the
# host merges into the suite's coverage report (/app is read-only for the guest's users).
export LLVM_PROFILE_FILE=$R/profiles/arcapture-%p.profraw
# A crash prints a backtrace to the run's stderr when the host put the toolchain's reporter here.
[ -x /app/swift-backtrace ] && export SWIFT_BACKTRACE=enable=yes,interactive=no,swift-backtrace=/app/swift-backtrace

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

reload_vivid() {
    rmmod vivid
    # shellcheck disable=SC2046
    insmod /modules/vivid.ko $(cat /etc/arcapture-vm/vivid-params)
    udev_apply
}

# wait_for SECONDS WHAT COMMAND...: runs COMMAND every 0.1 s until it succeeds. The guest is
# emulated and shares the host's cores, so nothing here sleeps a fixed time and hopes: each step
# waits for the condition it needs (frames written, buffers mapped, a message printed). SECONDS is
# a bound only a hang reaches; reaching it is recorded in /out/waits.txt, which a test requires empty.
wait_for() {
    limit=$1 what=$2
    shift 2
    tries=$((limit * 10))
    until "$@" 2>/dev/null; do
        # WATCH names the process a scenario waits on: once it has ended, nothing more will come.
        if [ -n "${WATCH:-}" ] && ! kill -0 "$WATCH" 2>/dev/null; then
            echo "the process ended before $what" >> /out/waits.txt
            return 1
        fi
        tries=$((tries - 1))
        if [ "$tries" -le 0 ]; then
            echo "timed out after ${limit} s waiting for $what" >> /out/waits.txt
            return 1
        fi
        sleep 0.1
    done
}
# run_time_ms DIR COMMAND: runs the shell command COMMAND as cam in a fresh DIR, output discarded,
# and prints how long it took in milliseconds (at least 500). The stress scenarios spread their
# random moments over one whole run's time measured so, with this build on this host however
# loaded, so that they reach the stream on a slow machine as on a fast one.
run_time_ms() {
    rm -rf "$1" && mkdir -p "$1" && chmod 0777 "$1"
    began=$(cut -d' ' -f1 /proc/uptime)
    su -s /bin/sh cam -c "cd $1 && exec $2" > /dev/null 2>&1
    awk -v began="$began" '{ms = ($1 - began) * 1000; printf "%d", ms < 500 ? 500 : ms}' /proc/uptime
}
# end_of PID SECONDS: waits up to SECONDS for the background job PID to end and sets STATUS to its
# exit status, or to "hang" when it had not (then it is sent SIGABRT, so a crash reporter prints
# where it hung, and SIGKILL).
end_of() {
    tries=$(($2 * 10))
    while kill -0 "$1" 2>/dev/null && [ "$tries" -gt 0 ]; do
        sleep 0.1
        tries=$((tries - 1))
    done
    if kill -0 "$1" 2>/dev/null; then
        kill -ABRT "$1" 2>/dev/null
        sleep 2
        kill -KILL "$1" 2>/dev/null
        wait "$1"
        STATUS=hang
    else
        wait "$1"
        STATUS=$?
    fi
}
# Conditions for wait_for (each looks again every time it is asked).
lines_at_least() { [ -f "$1" ] && [ "$(wc -l < "$1")" -ge "$2" ]; }   # FILE N: N lines (JSON records)
files_at_least() { [ "$(ls "$1" | grep -c "$2")" -ge "$3" ]; }        # DIRECTORY REGEX N: N files named so
has_data() { for f in $1; do [ -s "$f" ] && return 0; done; return 1; } # 'GLOB': a file it names has data
says() { grep -q "$2" "$1"; }                                          # FILE TEXT: a message was printed
streams() {                                                            # PROGRAM: it has mapped a camera's buffers
    for p in $(pidof "$1"); do grep -q /dev/video "/proc/$p/maps" && return 0; done
    return 1
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

: > /out/waits.txt
