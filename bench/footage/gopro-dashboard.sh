#!/usr/bin/env bash
# arcapture against gopro-dashboard-overlay, the tool people use today to put their GoPro's GPS on
# its video, on the GoPro MAX sample clip (848x480, 315 frames, its own GPMF), in one run.
#
#   bash bench/footage/gopro-dashboard.sh      (from the package root)
#
# gopro-dashboard-overlay (PyPI `gopro-overlay`, GPL-3.0) is a benchmark peer only, never a
# dependency: version 0.134.0 is installed from PyPI into this bench's own virtual environment
# (.build/bench-venv). Its default layouts exist only for 1080p and larger and include maps, which
# fetch tiles, so it is given a small layout of its own (gopro-dashboard/layout-848x480.xml: date
# and time, latitude and longitude, speed, altitude and a compass, no maps). It encodes with
# ffmpeg's libx264 -preset veryfast at x264's default CRF 23, so arcapture is run at the same
# settings (--crf 23 --preset veryfast) and so is the bare re-encode. Measured, each the median
# of three interleaved rounds, wall time of the whole process: (a) `ffmpeg -i CLIP -c:v libx264
# -preset veryfast OUT.mp4`, the limit of re-encoding; (b) gopro-dashboard.py; (c) arcapture
# annotate with the Carlsbad towns. Printed: frames per second, peak memory, b/a, c/a and c/b
# (the aim: c/b of 2 or more). gopro-dashboard draws its overlay 10 times a second and lays it
# over every frame; arcapture draws every frame.
# Needs: ffmpeg (with libx264), GNU time, python3-venv, PyPI.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v /usr/bin/time >/dev/null || { echo "gopro-dashboard.sh: needs GNU time (apt-get install time)" >&2; exit 69; }
venv=.build/bench-venv
if [ ! -x "$venv/bin/gopro-dashboard.py" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q gopro-overlay==0.134.0
fi
swift build -c release --product arcapture >/dev/null
arcapture="$(swift build -c release --show-bin-path)/arcapture"
clip=samples/video/max-heromode.mp4
frames=315

# Runs a command under GNU time; prints "SECONDS PEAK_KB".
measure() {
    sync
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    cat "$work/time"
}
median() { sort -n | sed -n 2p; }

for f in a b c; do : >"$work/$f"; done
for round in 1 2 3; do
    measure ffmpeg -loglevel error -y -i "$clip" -c:v libx264 -preset veryfast "$work/a.mp4" >>"$work/a"
    measure "$venv/bin/gopro-dashboard.py" --font /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
        --layout xml --layout-xml bench/footage/gopro-dashboard/layout-848x480.xml --overlay-size 848x480 \
        "$clip" "$work/b.mp4" >>"$work/b"
    measure "$arcapture" annotate "$clip" --pois samples/pois/geonames_places_near_carlsbad.geojson --hfov 118 \
        --heading-from-course --max-distance 40000 --crf 23 --preset veryfast --force --output "$work/c.mp4" >>"$work/c"
done
for f in a b c; do eval "$f=\$(median <\"\$work/$f\")"; done
echo "GoPro MAX clip ($clip, $frames frames, 848x480):"
for row in "a ffmpeg re-encode, libx264 veryfast (the limit)|$a" "b gopro-dashboard-overlay 0.134.0|$b" \
    "c arcapture annotate to MP4|$c"; do
    label=${row%%|*} values=${row#*|}
    awk -v label="$label" -v s="${values% *}" -v kb="${values#* }" -v n="$frames" \
        'BEGIN {printf "  (%s)%s %7.1f fps  peak %6.1f MB\n", substr(label, 1, 1), substr(label, 2), n / s, kb / 1024}'
done
awk -v a="${a% *}" -v b="${b% *}" -v c="${c% *}" \
    'BEGIN {printf "  b/a %.2f   c/a %.2f   c/b %.2f\n", a / b, a / c, b / c}'
