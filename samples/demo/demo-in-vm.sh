#!/bin/sh
# Runs inside the vivid VM (see scripts/demo): lists the virtual camera, runs the smoke test, and
# pushes the sample frame through the camera's loop-back path with `check --stream-to`.
set -u
exec > /out/demo.txt 2>&1   # the host prints this file
C=/dev/video0
O=/dev/video1
for node in /dev/video*; do chgrp video "$node" && chmod 0660 "$node"; done   # what udev would do
as_user() { su -s /bin/sh cam -c "$*"; }

echo '$ arcapture devices   (first lines)'
as_user ./arcapture devices | head -n 16
echo '  …'
echo
echo '$ arcapture check --size 1280x720 --frames 25'
as_user ./arcapture check --size 1280x720 --frames 25
echo "(exit status $?)"
echo

# vivid's HDMI loop: what is written to the output node comes back on the capture node.
v4l2-ctl -d $C -i 3 >/dev/null && v4l2-ctl -d $O -o 1 >/dev/null
v4l2-ctl -d $C --set-dv-bt-timings index=0 >/dev/null && v4l2-ctl -d $O --set-dv-bt-timings index=0 >/dev/null
v4l2-ctl -d $O --set-fmt-video-out=width=640,height=480,pixelformat=YUYV
v4l2-ctl -d $C -c loop_video=1 -c osd_text_mode=2
v4l2-ctl -d $O --stream-out-mmap --stream-from=/app/lund-640x480.yuyv --stream-loop >/dev/null 2>&1 &
feeder=$!
sleep 1
# The loop runs through an emulated guest (no KVM) with a feeder process competing for the one
# CPU, so it delivers fewer frames than the 60 Hz timing advertises (49 fps and a drop were seen):
# the demo shows frames coming back through the loop, so the rate and drop limits are loosened
# for it and say so, rather than report a FAIL that is the emulator's.
echo '$ arcapture check --format YUYV --size 640x480 --frames 3 --max-drops 5 --fps-tolerance 50 --stream-to captured.yuyv   (sample frame looped through vivid)'
as_user ./arcapture check --format YUYV --size 640x480 --frames 3 --max-drops 5 --fps-tolerance 50 --stream-to /tmp/captured.yuyv
echo "(exit status $?)"
kill $feeder
# Written by the guest's user into guest memory; root copies it out (the 9p share may not let other
# guest users write when QEMU runs as a normal user).
cp /tmp/captured.yuyv /out/ 2>/dev/null
