#!/bin/sh
# One boot of the power-loss runs (scripts/stress-power-loss boots it again and again with the same
# disk, /dev/vda, and cuts the power by killing QEMU). Each boot first copies what the disk holds
# (what the last run left when the power went) to /out/found/, as a board finds its card after the
# power comes back; then, unless this is the last boot (/app/power-mode says "check"), it starts
# what a board runs: a time-lapse with its JSON-lines log (capture from vivid), and footage
# annotated again and again into numbered frames and an MJPEG file, all on the disk, and says
# /out/writing once the first frames are there. The host kills the VM at a random moment after.
set -u
. ./guest-lib.sh
udev_apply
fs=$(cat /app/power-fs)
mkdir -p /mnt
case $fs in
    vfat) mount -t vfat -o umask=000 /dev/vda /mnt ;;
    *) mount -t "$fs" /dev/vda /mnt ;;
esac || { echo "mount failed" > /out/found-failed; exit 1; }
mkdir -p /out/found
[ -d /mnt/run ] && cp -r /mnt/run/. /out/found/
rm -rf /mnt/run
sync
echo done > /out/found-done
if [ "$(cat /app/power-mode)" = check ]; then
    umount /mnt
    exit 0
fi
mkdir -p /mnt/run/footage && chmod -R 0777 /mnt/run
export LLVM_PROFILE_FILE=/dev/null
su -s /bin/sh cam -c "cd /mnt/run && exec /app/arcapture capture --size 640x480 --fps 25 --every 100ms --count 100000 --output 'lapse-%4n.jpg' --json-log lapse.jsonl" \
    > /out/capture.out 2> /out/capture.err &
su -s /bin/sh cam -c "cd /mnt/run/footage && i=0; while :; do i=\$((i + 1)); /app/arcapture annotate /app/clip.mjpeg --position 60.1605,24.9325,5 --orientation 200,0,0 --hfov 70 --fps 8 --pois /app/pois.geojson --output \"\$i-%03n.jpg\" --sidecar \"\$i.jsonl\" || exit; /app/arcapture annotate /app/clip.mjpeg --position 60.1605,24.9325,5 --orientation 200,0,0 --hfov 70 --fps 8 --pois /app/pois.geojson --output \"\$i.mjpeg\" || exit; done" \
    > /out/footage.out 2> /out/footage.err &
wait_for 120 "the first frames on the disk" files_at_least /mnt/run '^lapse-' 2
wait_for 120 "the first footage frames on the disk" files_at_least /mnt/run/footage '^1-' 1
echo writing > /out/writing
# The power is cut from outside; nothing here ends the run.
wait
