#!/usr/bin/env bash
# arcapture serve side by side with uStreamer (Debian's ustreamer 4.9, what board users run for an
# MJPEG stream) on the same camera: vivid in the test VM, the same size, rate, pixel format
# (YUYV, so both encode every frame with libjpeg-turbo) and JPEG quality, to 1 and to 10 clients.
# Printed per server and client count: the server's CPU per frame, the frames one client got,
# and the time from capture (each part's X-Timestamp) to the frame's last byte at that client
# (median and 99th percentile); the same on one clock, from a v4l2loopback camera whose writer
# (Tests/VM/loopback-writer.c --stamped) numbers each frame and logs its write, to the client that reads the number
# back (see compare-guest.sh); then arcapture's ratios to uStreamer without the overlay, and what
# the overlay adds.
#
# Usage: bash bench/serve/compare-ustreamer.sh [SIZE] [FPS] [SECONDS]    (default 640x480 5 20)
#
# The default rate is one the emulated guest sustains with both servers and ten clients: at
# 15 fps it does not (uStreamer then sends 7 frames a second; arcapture drops to the newest frame
# too, keeping one waiting), and CPU per frame and latency stop meaning the servers' own costs.
#
# Both run under QEMU's software emulation, one virtual CPU shared with vivid's pattern
# generator and the clients: the ratios compare like with like, the absolute figures are an
# emulated machine's. arcapture is the release build with the static runtime (packaging/build-deb's).
set -euo pipefail
cd "$(dirname "$0")/../.."
size=${1:-640x480} fps=${2:-5} seconds=${3:-20}
for tool in ustreamer gcc; do
    command -v "$tool" >/dev/null || { echo "compare-ustreamer: '$tool' not found: apt-get install ustreamer gcc" >&2; exit 1; }
done
swift build -c release --static-swift-stdlib --product arcapture --scratch-path .build/static 2>&1 | tail -n 1 >&2
bin=$(swift build -c release --static-swift-stdlib --scratch-path .build/static --show-bin-path)/arcapture
work=.build/compare-ustreamer
rm -rf "$work" && mkdir -p "$work/payload" "$work/out"
cp "$bin" "$work/payload/arcapture"
cp "$(command -v ustreamer)" "$work/payload/ustreamer"
gcc -O2 -static -Wall -Wextra -o "$work/payload/mjpeg-client" bench/serve/mjpeg-client.c -lturbojpeg
gcc -O2 -static -Wall -Wextra -o "$work/payload/loopback-writer" Tests/VM/loopback-writer.c
# The one-clock runs' camera: v4l2loopback built for the VM's kernel (cached), as the tests do.
kroot=${ARCAPTURE_VM_KERNEL_ROOT:-$(Tests/VM/fetch-kernel.sh)}
cp "$(bash Tests/VM/build-loopback.sh "$kroot")" "$work/payload/v4l2loopback.ko"
cp Tests/VM/guest-lib.sh bench/serve/compare-guest.sh "$work/payload/"
cp samples/pois/helsinki_center_osm_pois.geojson "$work/payload/pois.geojson"
echo "$size" > "$work/payload/size"
echo "$fps" > "$work/payload/fps"
echo "$seconds" > "$work/payload/seconds"
ARCAPTURE_VM_TIMEOUT=900 bash Tests/VM/vivid-vm.sh "$work/payload" "$work/out" compare-guest.sh >&2 ||
    { echo "compare-ustreamer: the VM run failed; see $work/out" >&2; exit 1; }
field() { awk -v key="$2" '{for (i = 1; i < NF; i++) if ($i == key) print $(i + 1)}' "$1"; }
declare -A cpu latency p99
echo "serve side by side with uStreamer: vivid $size YUYV at $fps fps in the VM (TCG, 1 vCPU), JPEG quality 80, ${seconds} s per run"
for name in ustreamer arcapture arcapture-overlay; do
    for clients in 1 10; do
        file=$work/out/$name-$clients.txt
        [ -s "$file" ] || { echo "compare-ustreamer: no result for $name with $clients clients (see $work/out)" >&2; exit 1; }
        frames=$(field "$file" frames)
        ticks=$(field "$file" cpu_ticks)
        cpu[$name-$clients]=$(awk -v t="$ticks" -v f="$frames" 'BEGIN {printf "%.2f", (f > 0 ? t * 10 / f : 0)}')
        latency[$name-$clients]=$(field "$file" latency_median_ms)
        p99[$name-$clients]=$(field "$file" latency_p99_ms)
        printf '  %-18s %2d clients: %4d frames in %s s, CPU %6s ms a frame, capture to last byte %s ms median, %s ms 99th\n' \
            "$name" "$clients" "$frames" "$seconds" "${cpu[$name-$clients]}" "${latency[$name-$clients]}" "${p99[$name-$clients]}"
    done
done
# vivid stamps each buffer with its frame's nominal time, which can lie up to a frame interval
# after the buffer is dequeued; arcapture's X-Timestamp is that driver timestamp, uStreamer's
# its own time of dequeueing. So the latencies are compared by what clients add (10 against 1),
# which the stamps' origin cancels out of; and on one clock in the loopback runs below.
declare -A clock clock99
for name in ustreamer-lb arcapture-lb; do
    for clients in 1 10; do
        file=$work/out/$name-$clients.txt
        [ -s "$file" ] || { echo "compare-ustreamer: no result for $name with $clients clients (see $work/out)" >&2; exit 1; }
        clock[$name-$clients]=$(field "$file" clock_latency_median_ms)
        clock99[$name-$clients]=$(field "$file" clock_latency_p99_ms)
        printf '  %-18s %2d clients: %4s frames matched to their writes (%s unreadable), written to last byte at the client %s ms median, %s ms 99th\n' \
            "$name" "$clients" "$(field "$file" matched)" "$(field "$file" unreadable)" "${clock[$name-$clients]}" "${clock99[$name-$clients]}"
    done
done
awk -v a1="${cpu[arcapture-1]}" -v u1="${cpu[ustreamer-1]}" -v a10="${cpu[arcapture-10]}" -v u10="${cpu[ustreamer-10]}" \
    -v la1="${latency[arcapture-1]}" -v la10="${latency[arcapture-10]}" -v lu1="${latency[ustreamer-1]}" \
    -v lu10="${latency[ustreamer-10]}" -v o1="${cpu[arcapture-overlay-1]}" \
    -v c1a="${clock[arcapture-lb-1]}" -v c1u="${clock[ustreamer-lb-1]}" -v c10a="${clock[arcapture-lb-10]}" \
    -v c10u="${clock[ustreamer-lb-10]}" 'BEGIN {
    printf "  arcapture / uStreamer, no overlay: CPU per frame %.2f with 1 client, %.2f with 10 (target at most 1.2)\n", (u1 > 0 ? a1 / u1 : 0), (u10 > 0 ? a10 / u10 : 0)
    printf "  latency added by 9 more clients: arcapture %.1f ms, uStreamer %.1f ms\n", la10 - la1, lu10 - lu1
    printf "  latency on one clock (v4l2loopback, written to last byte at the client), arcapture / uStreamer: %.2f with 1 client, %.2f with 10 (target at most 1.2)\n", (c1u > 0 ? c1a / c1u : 0), (c10u > 0 ? c10a / c10u : 0)
    printf "  the overlay adds %.1f ms of CPU a frame (1 client)\n", o1 - a1 }'
