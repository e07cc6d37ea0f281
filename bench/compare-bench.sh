#!/usr/bin/env bash
# Two builds' arcapture-bench, interleaved, in one run: for a change that must not make projection,
# drawing or the live path slower. The machine's speed moves from run to run (a shared VM: the
# libjpeg-turbo transcode the ratios are taken against moved 7.2-8.9 ms between two runs minutes
# apart), so the two builds are run alternately and each figure's medians compared.
#
#   bash bench/compare-bench.sh BEFORE AFTER [ROUNDS]
#
# BEFORE and AFTER are package folders with a release build of arcapture-bench (say, a worktree of
# the commit before a change: git worktree add ../before COMMIT; cd ../before; swift build -c
# release --product arcapture-bench). Each is run ROUNDS times (default 3) from its own folder,
# alternating; it prints each figure's median for both and the ratio AFTER/BEFORE (above 1: the
# change made it larger, which for times and memory is worse).
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }
before=$(cd "$1" && pwd) after=$(cd "$2" && pwd) rounds=${3:-3}
for side in "$before" "$after"; do
    [ -x "$side/.build/release/arcapture-bench" ] ||
        { echo "compare-bench: $side has no release build of arcapture-bench" >&2; exit 66; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for round in $(seq 1 "$rounds"); do
    for side in before after; do
        folder=$before
        [ "$side" = after ] && folder=$after
        (cd "$folder" && .build/release/arcapture-bench > "$work/$side-$round.txt" 2>&1) ||
            { cat "$work/$side-$round.txt" >&2; exit 1; }
    done
done
python3 - "$work" "$rounds" "$before" "$after" <<'PY'
import re, statistics, sys
work, rounds, before, after = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
# (label, pattern): the first number the pattern captures in each run's output.
figures = [
    ("project 10,000 POIs (ms)", r"project 10,000 POIs for one pose:\s+([\d.]+) ms"),
    ("JPEG decode+encode 720p (ms)", r"decode \+ encode, 1280x720:\s+([\d.]+) ms"),
    ("ratio projection / transcode", r"ratio projection / JPEG decode\+encode:\s+([\d.]+)"),
    ("annotate one frame (ms)", r"annotate: .*?:\s+([\d.]+) ms"),
    ("ratio drawing / transcode 4:2:2", r"ratio drawing / JPEG decode\+encode \(4:2:2\):\s+([\d.]+)"),
    ("live YUYV CPU per frame (ms)", r"YUYV:\s+([\d.]+) ms"),
    ("live MJPEG CPU per frame (ms)", r"MJPEG:\s+([\d.]+) ms"),
    ("footage CPU per frame (ms)", r"footage, the same MJPEG frames, 1 worker:\s+([\d.]+) ms"),
    ("ratio live MJPEG / footage", r"ratio live MJPEG / footage\s+([\d.]+)"),
    ("1080p live peak memory (MB)", r"peak memory\s+([\d.]+) MB"),
]
def read(side):
    texts = [open(f"{work}/{side}-{r}.txt").read() for r in range(1, rounds + 1)]
    values = {}
    for label, pattern in figures:
        found = [re.search(pattern, text) for text in texts]
        if all(found):
            values[label] = [float(m.group(1)) for m in found]
    return values
b, a = read("before"), read("after")
print(f"compare-bench: arcapture-bench, {rounds} alternating rounds, medians")
print(f"  before {before}\n  after  {after}")
print(f"  {'figure':34} {'before':>9} {'after':>9}  after/before   (each round: before | after)")
for label, _ in figures:
    if label not in b or label not in a:
        print(f"  {label:34} not printed by both builds")
        continue
    mb, ma = statistics.median(b[label]), statistics.median(a[label])
    rounds_text = " ".join(f"{x:g}" for x in b[label]) + " | " + " ".join(f"{x:g}" for x in a[label])
    print(f"  {label:34} {mb:9.3f} {ma:9.3f}  {ma / mb:12.3f}   ({rounds_text})")
PY
