#!/usr/bin/env bash
# Two builds of arcapture on the same footage, interleaved, in one run: for a change that must not
# make footage annotation slower (or change its output). The machine's speed varies from run to run
# (a shared VM: the libjpeg-turbo limit itself moved 143–164 fps between two runs of footage.sh), so
# a ratio of the two builds measured side by side says more than two runs of footage.sh.
#
#   bash bench/footage/compare.sh BEFORE AFTER [FRAMES] [ROUNDS]
#
# BEFORE and AFTER are arcapture binaries (say, a release build of main and of the change). It makes
# footage.sh's footage (1280x720 4:2:2 MJPEG, 20 POIs, the Višnjan track as route), runs each binary
# with 1 worker and with one per core, ROUNDS times (default 5) alternating, and prints the median
# seconds and the ratio AFTER/BEFORE (above 1: the change is faster). The outputs must be
# byte-identical, else it fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }
before=$1 after=$2 frames=${3:-600} rounds=${4:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffmpeg -loglevel error -loop 1 -i samples/frames/lund-640x480.jpg \
    -vf "scale=1280:960,crop=1280:720:0:'mod(n*3,240)',format=yuvj422p" -frames:v "$frames" -q:v 3 \
    -f mjpeg "$work/in.mjpeg"
python3 - "$work/pois.geojson" <<'PY'
import json, math, sys
lat, lon = 45.273519, 13.714210
features = []
for i in range(20):
    bearing = math.radians(150 + (i - 10) * 3.5)
    d = 60 + i * 25
    features.append({"type": "Feature", "properties": {"name": f"Place {i + 1}"},
                     "geometry": {"type": "Point", "coordinates": [
                         lon + d * math.sin(bearing) / (111320 * math.cos(math.radians(lat))),
                         lat + d * math.cos(bearing) / 110574]}})
json.dump({"type": "FeatureCollection", "features": features}, open(sys.argv[1], "w"))
PY
common=(--pois "$work/pois.geojson" --hfov 70 --track samples/gpx/around-visnjan-with-car.gpx
    --start 2020-12-18T06:15:50Z --fps 30 --heading-from-course --route samples/gpx/around-visnjan-with-car.gpx
    --max-markers 20 --force)
cores=$(nproc)
run() {  # BINARY WORKERS OUTPUT: prints seconds
    sync
    local start end
    start=$(date +%s.%N)
    "$1" annotate "$work/in.mjpeg" "${common[@]}" --workers "$2" --output "$3" >/dev/null 2>"$work/err" ||
        { cat "$work/err" >&2; exit 1; }
    end=$(date +%s.%N)
    python3 -c "print($end - $start)"
}
declare -A times
for round in $(seq 1 "$rounds"); do
    for workers in 1 "$cores"; do
        times[before-$workers]+="$(run "$before" "$workers" "$work/before-$workers.mjpeg") "
        times[after-$workers]+="$(run "$after" "$workers" "$work/after-$workers.mjpeg") "
    done
done
for workers in 1 "$cores"; do
    cmp -s "$work/before-$workers.mjpeg" "$work/after-$workers.mjpeg" ||
        { echo "compare: the outputs with $workers worker(s) differ" >&2; exit 1; }
done
python3 - "$frames" "$rounds" "$cores" "${times[before-1]}" "${times[after-1]}" "${times[before-$cores]}" \
    "${times[after-$cores]}" <<'PY'
import statistics, sys
frames, rounds, cores = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
med = [statistics.median(float(x) for x in arg.split()) for arg in sys.argv[4:8]]
print(f"compare: {frames} frames of 1280x720 MJPEG, medians of {rounds} alternating rounds; outputs byte-identical")
for label, b, a in (("1 worker", med[0], med[1]), (f"{cores} workers", med[2], med[3])):
    print(f"  {label:10} before {frames / b:7.1f} fps   after {frames / a:7.1f} fps   after/before {b / a:.3f}")
PY
