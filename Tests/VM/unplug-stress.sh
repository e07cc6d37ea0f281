#!/bin/sh
# The unplug stress (sourced after guest-lib.sh): `unplug_stress RUNS DIR [WINDOW_MS|auto]` starts `arcapture check`
# or `arcapture capture` (alternately) as user cam, unplugs vivid (its disconnect control, which
# unregisters every node as a USB unplug does) after a random delay, from before the binary has
# opened the camera to well into the stream, and records what became of each run in DIR/runs.txt:
#
#     RUN COMMAND DELAY_MS STATUS FRAMES_WRITTEN TEMPORARY_FILES_LEFT SECONDS
#
# (SECONDS: the whole run, from starting the process to the driver reloaded, in the guest's time.)
#
# The last two runs (a check and a capture) unplug once the stream is under way instead (DELAY_MS
# "stream": check has mapped the camera's buffers, capture has written its first frame), with 300
# frames to stream so that the unplug lands inside it: a busy host slows the guest past the window
# measured at the start, and then every random moment can fall before the open (a CI run saw 25
# checks end 0).
#
# STATUS is the exit status; "hang" when the run was still going 60 s after the unplug (it is then
# killed). A run that ended otherwise than 0 or 69 keeps its stdout and stderr (a crash's with the
# crash reporter's backtrace) as DIR/RUN.out and DIR/RUN.err. The check's rate and drop limits are
# wide: an emulated guest on a busy host falls behind vivid, and this is about unplugs. vivid re-registers its nodes once their
# last user closes them, so an unplug before the open is no unplug at all: that run streams its
# frames and ends 0, which is what it should do.
unplug_stress() {
    runs=$1 dir=$2 WINDOW_MS=${3:-auto}
    mkdir -p "$dir" /tmp/unplug-stress && chmod 0777 /tmp/unplug-stress
    : > "$dir/runs.txt"
    # Coverage counters of these runs are not kept: thirty more profiles to merge for code the
    # scenarios already cover.
    saved_profile=${LLVM_PROFILE_FILE:-}
    export LLVM_PROFILE_FILE=/tmp/unplug-stress/run/default.profraw
    # The capture is the one the runs alternate with check (below).
    capture="/app/arcapture capture --size 320x180 --fps 30 --count 20 --output 'u-%3n.jpg'"
    if [ "$WINDOW_MS" = auto ]; then
        WINDOW_MS=$(run_time_ms /tmp/unplug-stress/run "$capture")
        reload_vivid
    fi
    echo "$WINDOW_MS" > "$dir/window-ms"
    run=1
    while [ "$run" -le "$runs" ]; do
        work=/tmp/unplug-stress/run
        rm -rf "$work" && mkdir -p "$work" && chmod 0777 "$work"
        began=$(cut -d' ' -f1 /proc/uptime)
        # 0 to WINDOW_MS: the binary starts (about 0.5 s for the release build under TCG), opens
        # and negotiates (0.5 s more), then streams 20 frames at 30 fps.
        delay=$(($(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % WINDOW_MS))
        frames=20
        [ "$run" -ge $((runs - 1)) ] && frames=300
        if [ $((run % 2)) -eq 1 ]; then
            command=check
            su -s /bin/sh cam -c "cd $work && exec /app/arcapture check --format YUYV --size 320x180 --fps 30 --frames $frames --max-drops $frames --fps-tolerance 90 --stream-to $work/frames.yuyv --json" \
                > "$work/out" 2> "$work/err" &
        else
            command=capture
            su -s /bin/sh cam -c "cd $work && exec ${capture%% --count *} --count $frames --output 'u-%3n.jpg'" \
                > "$work/out" 2> "$work/err" &
        fi
        pid=$!
        if [ "$run" -ge $((runs - 1)) ]; then
            delay=stream
            if [ "$command" = check ]; then
                WATCH=$pid wait_for 60 "run $run's stream" streams arcapture
            else
                WATCH=$pid wait_for 60 "run $run's first frame" files_at_least "$work" '^u-.*\.jpg$' 1
            fi
        else
            sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
        fi
        v4l2-ctl -d $C -c disconnect=1 2>/dev/null
        end_of "$pid" 60
        status=$STATUS
        written=$(ls "$work" | grep -c -e '^u-.*\.jpg$' -e '^frames\.yuyv$')
        temporary=$(ls -a "$work" | grep -c '\.tmp$')
        line="$run $command $delay $status $written $temporary"
        case $status in
            0 | 69) ;;
            *) cp "$work/out" "$dir/$run.out"; cp "$work/err" "$dir/$run.err" ;;
        esac
        # The module is reloaded between runs (as the camera is plugged in again), so each run
        # starts from a fresh driver.
        wait_for 30 "the camera's last user to close it" sh -c "! pidof arcapture >/dev/null"
        reload_vivid
        echo "$line $(awk -v began="$began" '{printf "%.2f", $1 - began}' /proc/uptime)" >> "$dir/runs.txt"
        run=$((run + 1))
    done
    export LLVM_PROFILE_FILE="$saved_profile"
}
