#!/usr/bin/env bash
# Video files in and out: arcapture annotating an H.264 MP4 against the limit of that work, in one
# run: to Y4M against ffmpeg decoding the same file to Y4M (the same libavcodec decoder, the same
# planes written), and to MP4 against ffmpeg's transcode at the same libx264 settings.
#
#   bash bench/footage/video.sh [FRAMES]      (from the package root; default 600 frames of 1080p)
#
# Two clips: the GoPro MAX sample (848x480, 315 frames, its own GPS) and a 1920x1080 H.264 clip
# made here with ffmpeg (a moving crop of samples/frames, x264 veryfast) annotated with the
# Višnjan track. Measured, each the median of three interleaved rounds, as a whole process by GNU
# time, writing Y4M to a pipe that discards it (a 1080p Y4M file is a gigabyte: writing it would
# measure the disk): (a) `ffmpeg -i CLIP -f yuv4mpegpipe -`, the limit; (b) arcapture annotate
# with 1 worker; (c) with one worker per core. Then to MP4, written to a file: (d) `ffmpeg -i CLIP
# -map 0:v -map 0:a? -c:a copy -c:v libx264 -crf 20 -preset veryfast OUT.mp4`, the limit (decode,
# encode at arcapture's default settings, audio copied); (e) arcapture annotate --output OUT.mp4
# with 1 worker; (f) with one worker per core. libx264 picks its own threads in both. Then an
# overlay track for an editor: (g) `ffmpeg -i CLIP -map 0:v:0 -c:v prores_ks -profile:v 4444
# -pix_fmt yuva444p10le OUT.mov`, a peer rather than a limit (decoding the clip and encoding its
# picture as ProRes 4444 at its size, an editor's usual intermediate; an overlay is mostly
# transparent, which ProRes codes faster, but is drawn twice and taken apart first), and (h) arcapture annotate --overlay-only --output OUT.mov (ProRes 4444
# with alpha) with one worker per core. Printed: frames per second, peak memory (the encoder's
# lookahead included), b/a, c/a, e/d, f/d, h/g.
# A third clip, a DJI drone's as the drone writes it (an MP4 with its .SRT beside it, 315 cues in
# the Mavic 3 Enterprise's layout with the gimbal's yaw), is annotated from its subtitles to MP4
# (d, e, f only): issue 40 asks that it run at the same ratio to the bare re-encode (e/d) as the
# GoPro clip does; the last line prints the two and their ratio. Its picture is the GoPro clip's
# (the video stream copied; a drone writes no audio and no GPMF), so that the two differ only in
# where the poses come from: a picture x264 codes faster (a moving crop of a photo codes at 2.4
# times the GoPro clip's rate) leaves the drawing a larger share of the time and lowers e/d with no
# change in arcapture's own work.
# Needs: ffmpeg (with libx264), GNU time.
set -euo pipefail
cd "$(dirname "$0")/../.."
frames=${1:-600}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v /usr/bin/time >/dev/null || { echo "video.sh: needs GNU time (apt-get install time)" >&2; exit 69; }
swift build -c release --product arcapture >/dev/null
arcapture="$(swift build -c release --show-bin-path)/arcapture"
cores=$(nproc)

ffmpeg -loglevel error -loop 1 -i samples/frames/lund-640x480.jpg \
    -vf "scale=1920:1440,crop=1920:1080:0:'mod(n*3,360)',format=yuv420p" -frames:v "$frames" -r 30 \
    -c:v libx264 -preset veryfast -crf 23 "$work/in1080.mp4"
# The DJI clip (the GoPro clip's picture, 848x480 at 29.97 fps, 315 frames) and its subtitles:
# one cue a frame, the drone going north-east near Carlsbad.
ffmpeg -loglevel error -i samples/video/max-heromode.mp4 -map 0:v:0 -c copy "$work/DJI_0001.MP4"
awk 'BEGIN {
    for (i = 0; i < 315; i++) {
        t = int(i * 1001 / 30); u = int((i + 1) * 1001 / 30)
        printf "%d\n%02d:%02d:%02d,%03d --> %02d:%02d:%02d,%03d\n", i + 1, 0, 0, int(t / 1000), t % 1000, 0, 0, int(u / 1000), u % 1000
        printf "<font size=\"28\">FrameCnt: %d, DiffTime: 33ms\n2024-05-01 10:00:%02d.%03d\n", i + 1, int(t / 1000), t % 1000
        printf "[iso: 110] [shutter: 1/200.0] [fnum: 2.8] [ev: 0] [focal_len: 24.00] [dzoom: 1.00]\n"
        printf "[latitude: %.6f] [longitude: %.6f] [rel_alt: 43.225 abs_alt: 90.949]\n", 33.126770 + i * 0.000003, -117.327344 + i * 0.000003
        printf "[gb_yaw: %.1f gb_pitch: -10.0 gb_roll: 0.0]\n</font>\n\n", -140 + i * 0.05
    }
}' > "$work/DJI_0001.SRT"
dji=$work/DJI_0001.MP4
dji_args=(--pois samples/pois/geonames_places_near_carlsbad.geojson --hfov 84 --max-distance 40000)
gopro=samples/video/max-heromode.mp4
gopro_args=(--pois samples/pois/geonames_places_near_carlsbad.geojson --hfov 118 --heading-from-course
    --max-distance 40000)
hd_args=(--pois samples/pois/geonames_places_near_datasets.geojson --hfov 70 --track samples/gpx/around-visnjan-with-car.gpx
    --start 2020-12-18T06:16:00Z --heading-from-course --max-distance 20000)

# Runs a command under GNU time; prints "SECONDS PEAK_KB".
measure() {
    sync
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    cat "$work/time"
}
median() { sort -n | sed -n 2p; }

for clip in gopro hd dji; do
    case $clip in
        gopro) input=$gopro count=315 args=("${gopro_args[@]}") ;;
        hd) input=$work/in1080.mp4 count=$frames args=("${hd_args[@]}") ;;
        dji) input=$dji count=315 args=("${dji_args[@]}") ;;
    esac
    for row in a b c d e f g h; do : >"$work/$row"; done
    for round in 1 2 3; do
        if [ "$clip" != dji ]; then
            measure ffmpeg -loglevel error -i "$input" -f yuv4mpegpipe -strict -1 - >>"$work/a"
            measure "$arcapture" annotate "$input" "${args[@]}" --workers 1 --format y4m --output - >>"$work/b"
            measure "$arcapture" annotate "$input" "${args[@]}" --workers "$cores" --format y4m --output - >>"$work/c"
        fi
        measure ffmpeg -loglevel error -y -i "$input" -map 0:v:0 -map '0:a?' -c:a copy -c:v libx264 -crf 20 \
            -preset veryfast "$work/out.mp4" >>"$work/d"
        measure "$arcapture" annotate "$input" "${args[@]}" --workers 1 --force --output "$work/out.mp4" >>"$work/e"
        measure "$arcapture" annotate "$input" "${args[@]}" --workers "$cores" --force --output "$work/out.mp4" \
            >>"$work/f"
        [ "$clip" != dji ] || continue
        measure ffmpeg -loglevel error -y -i "$input" -map 0:v:0 -c:v prores_ks -profile:v 4444 \
            -pix_fmt yuva444p10le "$work/peer.mov" >>"$work/g"
        measure "$arcapture" annotate "$input" "${args[@]}" --workers "$cores" --force --overlay-only \
            --output "$work/overlay.mov" >>"$work/h"
    done
    if [ "$clip" = dji ]; then
        for row in d e f; do eval "$row=\$(median <\"\$work/$row\")"; done
        echo "dji (a DJI clip with its .SRT beside it, $count frames):"
        for row in "d ffmpeg decode + libx264 to MP4 (the limit)|$d" "e arcapture annotate to MP4, 1 worker|$e" \
            "f arcapture annotate to MP4, $cores workers|$f"; do
            label=${row%%|*} values=${row#*|}
            awk -v label="$label" -v s="${values% *}" -v kb="${values#* }" -v n="$count" \
                'BEGIN {printf "  (%s)%s %7.1f fps  peak %6.1f MB\n", substr(label, 1, 1), substr(label, 2), n / s, kb / 1024}'
        done
        awk -v d="${d% *}" -v e="${e% *}" -v f="${f% *}" -v ge="$gopro_ed" \
            'BEGIN {printf "  e/d %.2f   f/d %.2f; against the GoPro clip'"'"'s e/d %.2f: %.2f (target about 1)\n", d / e, d / f, ge, (d / e) / ge}'
        continue
    fi
    # Not "for f": the loop's own variable would be the row f's value, overwritten by g and h.
    for row in a b c d e f g h; do eval "$row=\$(median <\"\$work/$row\")"; done
    echo "$clip ($input, $count frames):"
    for row in "a ffmpeg decode to Y4M (the limit)|$a" "b arcapture annotate, 1 worker|$b" \
        "c arcapture annotate, $cores workers|$c" "d ffmpeg decode + libx264 to MP4 (the limit)|$d" \
        "e arcapture annotate to MP4, 1 worker|$e" "f arcapture annotate to MP4, $cores workers|$f" \
        "g ffmpeg decode + ProRes 4444 of the picture (a peer)|$g" "h arcapture annotate --overlay-only, ProRes 4444, $cores workers|$h"; do
        label=${row%%|*} values=${row#*|}
        awk -v label="$label" -v s="${values% *}" -v kb="${values#* }" -v n="$count" \
            'BEGIN {printf "  (%s)%s %7.1f fps  peak %6.1f MB\n", substr(label, 1, 1), substr(label, 2), n / s, kb / 1024}'
    done
    awk -v a="${a% *}" -v b="${b% *}" -v c="${c% *}" -v d="${d% *}" -v e="${e% *}" -v f="${f% *}" \
        -v g="${g% *}" -v h="${h% *}" \
        'BEGIN {printf "  b/a %.2f   c/a %.2f   e/d %.2f   f/d %.2f   h/g %.2f\n", a / b, a / c, d / e, d / f, g / h}'
    [ "$clip" != gopro ] || gopro_ed=$(awk -v d="${d% *}" -v e="${e% *}" 'BEGIN {printf "%.4f", d / e}')
done
