#!/usr/bin/env bash
# The footage benchmark: annotating 1280x720 4:2:2 MJPEG footage against the limit of a plain
# libjpeg-turbo decode-and-encode, on this machine, in one run.
#
#   bash bench/footage/footage.sh [FRAMES]      (from the package root; default 900 frames, 30 s)
#
# It builds arcapture in release mode, makes the footage with ffmpeg from samples/frames (a moving
# crop, so every frame differs), writes 20 POIs around the Višnjan track's start, and measures:
#   (a) the limit: bench/footage/transcode.c, libjpeg-turbo decode to planes + encode, one thread;
#   (a2) one such loop per core, all at once: what this machine's cores give the limit itself, the
#        ceiling for c/a (a shared VM's second core is not always a whole one);
#   (b) arcapture annotate with 1 worker: 20 labelled POIs, the track as a route, the panel;
#   (c) the same with one worker per core;
#   (d) ffmpeg decoding, drawing 20 boxes and 20 labels (drawbox, drawtext) and re-encoding;
#   (e) Y4M in and out (4:2:2), 1 worker, to a file and (f) to a pipe (as into ffmpeg);
#   (g) peak memory annotating 1920x1080 footage, with 1 worker and with one per core;
#   (h)-(k) splicing (issue 19): the footage re-encoded by libjpeg-turbo itself with a restart marker
#        every MCU row (TurboJPEG's TJ_RESTART=1, as many UVC webcams send MJPEG), annotated with 1
#        worker: (h) 20 POIs and the panel without the route's ribbon, (i) with it, (j) (h) with
#        --no-splice (the full path on the same frames), (k) (h) at 1920x1080 against (a) at that
#        size; and the size of arcapture's output with its restart markers against without.
# Every program is timed the same way, as a whole process by GNU time (start-up, reading its input
# and writing its output included), so the ratios compare like with like; (a), (a2), (b) and (c)
# are the medians of three interleaved rounds. Each line gives frames per second and peak memory (GNU
# time's maximum resident set); the ratios b/a, c/a and b/d follow.
# Needs: clang and libturbojpeg (install-deps), ffmpeg, GNU time.
set -euo pipefail
cd "$(dirname "$0")/../.."
frames=${1:-900}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v /usr/bin/time >/dev/null || { echo "footage.sh: needs GNU time (apt-get install time)" >&2; exit 69; }
swift build -c release --product arcapture >/dev/null
arcapture="$(swift build -c release --show-bin-path)/arcapture"
clang -O2 -o "$work/transcode" bench/footage/transcode.c -lturbojpeg

ffmpeg -loglevel error -loop 1 -i samples/frames/lund-640x480.jpg \
    -vf "scale=1280:960,crop=1280:720:0:'mod(n*3,240)',format=yuvj422p" -frames:v "$frames" -q:v 3 \
    -f mjpeg "$work/in.mjpeg"
ffmpeg -loglevel error -i "$work/in.mjpeg" -frames:v 300 -pix_fmt yuv422p -strict -1 -f yuv4mpegpipe "$work/in.y4m"
ffmpeg -loglevel error -loop 1 -i samples/frames/lund-640x480.jpg \
    -vf "scale=1920:1440,crop=1920:1080:0:'mod(n*3,360)',format=yuvj422p" -frames:v 300 -q:v 3 \
    -f mjpeg "$work/in1080.mjpeg"
# Restart markers every MCU row, written by libjpeg-turbo (TurboJPEG reads TJ_RESTART).
TJ_RESTART=1 "$work/transcode" "$work/in.mjpeg" "$work/rst.mjpeg" 90 >/dev/null
TJ_RESTART=1 "$work/transcode" "$work/in1080.mjpeg" "$work/rst1080.mjpeg" 90 >/dev/null
echo '{"layers": ["markers", "labels", "edge-arrows", "panel", "banner"]}' >"$work/no-ribbon.json"
python3 - "$work/pois.geojson" <<'PY'
import json, math, sys
lat, lon = 45.273519, 13.714210  # the Višnjan track's first point
features = []
for i in range(20):
    bearing = math.radians(150 + (i - 10) * 3.5)  # ahead of the car, which heads south-west
    d = 60 + i * 25
    features.append({"type": "Feature", "properties": {"name": f"Place {i + 1}"},
                     "geometry": {"type": "Point", "coordinates": [
                         lon + d * math.sin(bearing) / (111320 * math.cos(math.radians(lat))),
                         lat + d * math.cos(bearing) / 110574]}})
json.dump({"type": "FeatureCollection", "features": features}, open(sys.argv[1], "w"))
PY

# Runs a command under GNU time; prints "SECONDS PEAK_KB".
# Each run starts with the disk quiet: the files written before (a Y4M file is 553 MB) are flushed
# first, so no run pays for another's writeback.
measure() {
    sync
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    cat "$work/time"
}
common=(--pois "$work/pois.geojson" --hfov 70 --track samples/gpx/around-visnjan-with-car.gpx
    --start 2020-12-18T06:15:50Z --fps 30 --heading-from-course --route samples/gpx/around-visnjan-with-car.gpx
    --max-markers 20)
annotate() { measure "$arcapture" annotate "$1" "${common[@]}" --workers "$2" --output "$3" --force "${@:4}"; }
cores=$(nproc)
# (a), (b) and (c) three times, interleaved, each the median of its three: on a shared machine whose
# speed drifts from minute to minute, one run of each can land in a fast and a slow minute.
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
tc=() pair=() one=() all=()
for round in 1 2 3; do
    read -r seconds tc_peak < <(measure "$work/transcode" "$work/in.mjpeg" "$work/tc.mjpeg" 90)
    tc+=("$seconds")
    read -r seconds _ < <(measure bash -c 'for i in $(seq "$4"); do "$1" "$2" "$3.$i" 90 >/dev/null & done; wait' \
        _ "$work/transcode" "$work/in.mjpeg" "$work/tc" "$cores")
    pair+=("$seconds")
    read -r seconds one_peak < <(annotate "$work/in.mjpeg" 1 "$work/one.mjpeg")
    one+=("$seconds")
    read -r seconds all_peak < <(annotate "$work/in.mjpeg" "$cores" "$work/all.mjpeg")
    all+=("$seconds")
done
tc_seconds=$(median "${tc[@]}") pair_seconds=$(median "${pair[@]}") one_seconds=$(median "${one[@]}") all_seconds=$(median "${all[@]}")
# Y4M: 300 frames (900 would be 1.6 GB); to a file, then to a pipe (GNU time measures arcapture).
read -r y4m_seconds y4m_peak < <(annotate "$work/in.y4m" 1 "$work/out.y4m")
sync
/usr/bin/time -f "%e %M" -o "$work/time" "$arcapture" annotate "$work/in.y4m" "${common[@]}" --workers 1 \
    --output - --format y4m 2>"$work/err" | cat >/dev/null
read -r pipe_seconds pipe_peak <"$work/time"
read -r _ hd_one_peak < <(annotate "$work/in1080.mjpeg" 1 "$work/hd1.mjpeg")
read -r _ hd_all_peak < <(annotate "$work/in1080.mjpeg" "$cores" "$work/hd.mjpeg")
# Splicing: interleaved rounds as above, the medians.
sp=() spr=() spo=() tc_hd=() sp_hd=()
for round in 1 2 3; do
    read -r seconds _ < <(annotate "$work/rst.mjpeg" 1 "$work/sp.mjpeg" --style "$work/no-ribbon.json")
    sp+=("$seconds")
    read -r seconds _ < <(annotate "$work/rst.mjpeg" 1 "$work/spr.mjpeg")
    spr+=("$seconds")
    read -r seconds _ < <(annotate "$work/rst.mjpeg" 1 "$work/spo.mjpeg" --style "$work/no-ribbon.json" --no-splice)
    spo+=("$seconds")
    read -r seconds _ < <(measure "$work/transcode" "$work/in1080.mjpeg" "$work/tc1080.mjpeg" 90)
    tc_hd+=("$seconds")
    read -r seconds _ < <(annotate "$work/rst1080.mjpeg" 1 "$work/sp1080.mjpeg" --style "$work/no-ribbon.json")
    sp_hd+=("$seconds")
done
sp_seconds=$(median "${sp[@]}") spr_seconds=$(median "${spr[@]}") spo_seconds=$(median "${spo[@]}")
tc_hd_seconds=$(median "${tc_hd[@]}") sp_hd_seconds=$(median "${sp_hd[@]}")
# Our own restart markers' cost in size: (b)'s output has them; the same without.
annotate "$work/in.mjpeg" 1 "$work/one-plain.mjpeg" --restart-interval 0 >/dev/null
marked_bytes=$(stat -c %s "$work/one.mjpeg") plain_bytes=$(stat -c %s "$work/one-plain.mjpeg")
filters=""
for i in $(seq 0 19); do
    x=$(( 40 + (i % 5) * 240 )); y=$(( 120 + (i / 5) * 120 ))
    filters+="drawbox=x=$x:y=$y:w=200:h=34:color=black@0.5:t=fill,"
    filters+="drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:text='Place $((i + 1)) · 1.2 km':x=$((x + 8)):y=$((y + 8)):fontsize=18:fontcolor=white,"
done
ffmpeg_line="n/a"
if ffmpeg -hide_banner -filters 2>/dev/null | grep drawtext >/dev/null; then  # not -q: ffmpeg must not get SIGPIPE
    read -r ff_seconds ff_peak < <(measure ffmpeg -loglevel error -y -i "$work/in.mjpeg" -vf "${filters%,}" \
        -q:v 3 -f mjpeg "$work/ff.mjpeg")
    ffmpeg_line=$ff_seconds
fi

python3 - "$frames" "$tc_seconds" "$tc_peak" "$one_seconds" "$one_peak" "$all_seconds" "$all_peak" \
    "$y4m_seconds" "$y4m_peak" "$pipe_seconds" "$pipe_peak" "$hd_one_peak" "$hd_all_peak" "$cores" \
    "$ffmpeg_line" "${ff_peak:-0}" "$pair_seconds" "$sp_seconds" "$spr_seconds" "$spo_seconds" "$tc_hd_seconds" \
    "$sp_hd_seconds" "$marked_bytes" "$plain_bytes" <<'PY'
import sys
frames = int(sys.argv[1])
tc_s, tc_kb, one_s, one_kb, all_s, all_kb, y4m_s, y4m_kb, pipe_s, pipe_kb, hd1_kb, hd_kb = map(float, sys.argv[2:14])
cores = int(sys.argv[14])
ff_s = None if sys.argv[15] == "n/a" else float(sys.argv[15])
ff_kb = float(sys.argv[16])
pair_s = float(sys.argv[17])
fps = lambda s, n=frames: n / max(s, 1e-9)
a = fps(tc_s)
print(f"footage: {frames} frames of 1280x720 4:2:2 MJPEG (Y4M: 300), {cores} cores, each program timed whole")
print("  (a), (a2), (b), (c): medians of three interleaved rounds")
print(f"  (a) libjpeg-turbo decode+encode, 1 thread  {a:8.1f} fps   peak {tc_kb / 1024:6.1f} MB")
a2 = fps(pair_s, cores * frames)
print(f"  {f'(a2) the same, {cores} loops at once':<43}{a2:8.1f} fps   a2/a {a2 / a:.2f}: the ceiling for c/a here")
print(f"  (b) arcapture annotate, 1 worker           {fps(one_s):8.1f} fps   peak {one_kb / 1024:6.1f} MB")
print(f"  (c) arcapture annotate, {cores} workers          {fps(all_s):8.1f} fps   peak {all_kb / 1024:6.1f} MB")
if ff_s is not None:
    print(f"  (d) ffmpeg drawbox+drawtext ×20            {fps(ff_s):8.1f} fps   peak {ff_kb / 1024:6.1f} MB")
print(f"  (e) arcapture annotate, Y4M file to file   {fps(y4m_s, 300):8.1f} fps   peak {y4m_kb / 1024:6.1f} MB")
print(f"  (f) arcapture annotate, Y4M file to a pipe {fps(pipe_s, 300):8.1f} fps   peak {pipe_kb / 1024:6.1f} MB")
print(f"  (g) 1920x1080 MJPEG: peak {hd1_kb / 1024:.1f} MB with 1 worker, {hd_kb / 1024:.1f} MB with {cores}")
print(f"  b/a {fps(one_s) / a:.2f} (target 0.85)   c/a {fps(all_s) / a:.2f} (target 1.7)", end="")
print(f"   b/d {fps(one_s) / fps(ff_s):.2f}" if ff_s else "")
sp_s, spr_s, spo_s, tc_hd_s, sp_hd_s, marked, plain = map(float, sys.argv[18:25])
print(f"  splicing, the same footage with a restart marker every MCU row, 1 worker:")
print(f"  (h) 20 POIs + panel, no ribbon, spliced    {fps(sp_s):8.1f} fps   h/a {fps(sp_s) / a:.2f} (target 2.5)")
print(f"  (i) with the route's ribbon, spliced       {fps(spr_s):8.1f} fps   i/a {fps(spr_s) / a:.2f} (target 1.5)")
print(f"  (j) (h) with --no-splice                   {fps(spo_s):8.1f} fps   h/j {fps(sp_s) / fps(spo_s):.2f}")
print(f"  (k) 1920x1080: (a) {fps(tc_hd_s, 300):.1f} fps, (h) {fps(sp_hd_s, 300):.1f} fps   k {fps(sp_hd_s, 300) / fps(tc_hd_s, 300):.2f} (target 2.5)")
print(f"  arcapture's output with a restart marker every MCU row: {marked / plain * 100 - 100:+.2f} % in size (target within 1 %)")
print("  (GNU time's seconds have 10 ms steps)")
PY
