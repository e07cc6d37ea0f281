#!/bin/sh
# Signals at random moments of live capture (sourced after guest-lib.sh): `signal_stress RUNS DIR`
# starts `arcapture capture` as user cam (a time-lapse of JPEG frames with a JSON-lines log, as a
# board runs it), sends SIGINT or SIGTERM (alternately: Ctrl-C, and systemd's stop) after a random
# delay, from before the binary has opened the camera to the end of its stream (the last two runs:
# once the first frame is written, DELAY_MS "first-frame"), and records each run in DIR/runs.txt:
#
#     RUN SIGNAL DELAY_MS STATUS FRAMES_WRITTEN TEMPORARY_FILES_LEFT LOG_LINES
#
# STATUS is the exit status (130 after SIGINT or SIGTERM, as the help says; 0 when the run had
# finished; 143 for a SIGTERM that came before arcapture set its handler up), or "hang" when it was
# still going 30 s after the signal. The frames and the log of every run are
# copied to DIR/RUN/ for the host to open with an independent decoder; a run that ended otherwise
# keeps its stderr as DIR/RUN.err.
signal_stress() {
    runs=$1 dir=$2
    mkdir -p "$dir" /tmp/signal-stress && chmod 0777 /tmp/signal-stress
    : > "$dir/runs.txt"
    saved_profile=${LLVM_PROFILE_FILE:-}
    export LLVM_PROFILE_FILE=/tmp/signal-stress/run/default.profraw
    work=/tmp/signal-stress/run
    capture="/app/arcapture capture --size 320x180 --fps 30 --count 20 --output 's-%3n.jpg' --json-log log.jsonl"
    # The moments: over one whole run's time, measured here first (run_time_ms).
    window=$(run_time_ms "$work" "$capture")
    echo "$window" > "$dir/window-ms"
    run=1
    while [ "$run" -le "$runs" ]; do
        rm -rf "$work" && mkdir -p "$work" && chmod 0777 "$work"
        delay=$(($(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % window))
        if [ $((run % 2)) -eq 1 ]; then signal=INT; else signal=TERM; fi
        su -s /bin/sh cam -c "cd $work && exec $capture" > "$work/out" 2> "$work/err" &
        pid=$!
        if [ "$run" -ge $((runs - 1)) ]; then
            # The last two (one of each signal) land once a frame is written, so that each signal
            # is seen to cut a stream whatever the random moments did: a SIGINT that reaches su
            # before arcapture runs is ignored (a background job's SIGINT is, in a shell without
            # job control), so the random INT runs can all miss the stream.
            delay=first-frame
            WATCH=$pid wait_for 60 "run $run's first frame" files_at_least "$work" '^s-.*\.jpg$' 1
        else
            sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
        fi
        # su execs the shell, which execs arcapture: the pid is arcapture's once it runs; before
        # that the signal reaches su or the shell, which end with the same status.
        kill -"$signal" "$pid" 2>/dev/null
        end_of "$pid" 30
        status=$STATUS
        written=$(ls "$work" | grep -c '^s-.*\.jpg$')
        temporary=$(ls -a "$work" | grep -c '\.tmp$')
        lines=0
        [ -f "$work/log.jsonl" ] && lines=$(wc -l < "$work/log.jsonl")
        mkdir -p "$dir/$run"
        for f in "$work"/s-*.jpg "$work/log.jsonl"; do [ -f "$f" ] && cp "$f" "$dir/$run/"; done
        case $status in
            0 | 130 | 143) ;;
            *) cp "$work/err" "$dir/$run.err" ;;
        esac
        wait_for 30 "the camera's last user to close it" sh -c "! pidof arcapture >/dev/null"
        echo "$run $signal $delay $status $written $temporary $lines" >> "$dir/runs.txt"
        run=$((run + 1))
    done
    export LLVM_PROFILE_FILE="$saved_profile"
}
