#!/bin/sh
# The unplug stress on its own (scripts/stress-unplug boots it): RUNS from /app/stress-runs, the
# window of unplug moments (ms, or auto: one whole run's time, measured) from /app/stress-window.
set -u
. ./guest-lib.sh
. ./unplug-stress.sh
[ -f /app/asan-options ] && export ASAN_OPTIONS="$(cat /app/asan-options)"
udev_apply
unplug_stress "$(cat /app/stress-runs)" /out/unplug-stress "$(cat /app/stress-window)"
cp -r $R/profiles /out/ 2>/dev/null
exit 0
