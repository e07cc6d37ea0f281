#!/bin/sh
# The unplug stress on its own (scripts/stress-unplug boots it): RUNS from /app/stress-runs.
set -u
. ./guest-lib.sh
. ./unplug-stress.sh
[ -f /app/asan-options ] && export ASAN_OPTIONS="$(cat /app/asan-options)"
udev_apply
unplug_stress "$(cat /app/stress-runs)" /out/unplug-stress
cp -r $R/profiles /out/ 2>/dev/null
exit 0
