#!/usr/bin/env python3
"""Makes the MJPEG frames Tests/VM/loopback-writer feeds the v4l2loopback camera in the VM.

Usage: make-loopback-frames.py OUTDIR PHOTO...

The frames are the kinds USB webcams send, made with independent encoders (ffmpeg and
libjpeg-turbo's cjpeg, never arcapture's code) from real photos scaled and cropped to each size:

  ffmpeg       ffmpeg's MJPEG encoder: JFIF, its own optimised Huffman tables (DHT present)
  uvc          cjpeg with the standard tables, DHT removed and an "AVI1" APP0 instead of JFIF:
               what most UVC webcams send (the standard tables are implied, as for AVI files)
  restart      cjpeg -restart 1: a restart marker (DRI, RSTn) after every MCU row, DHT kept
  uvc-restart  both: restart markers, no DHT, AVI1
  padded       an ffmpeg frame followed by 8 KiB of zeros, as some drivers leave after EOI

and the damaged kinds, for the bad-frames scenario:

  truncated    the first 60 % of a frame: no end-of-image marker (a USB transfer cut short)
  bitflip      entropy-coded bytes flipped in the middle of the scan; djpeg must warn about it
  zeros        64 KiB of zeros (a buffer the camera never filled)
  oversize     a frame longer than the driver's buffer (width x height x 4), which the driver
               cuts at the buffer's end: it ends without an end-of-image marker

and, at 640x480, the pictures `check` must fail: dark-640x480.frames, a capped lens (eight
frames of dark noise around luma 10, each different) and frozen-640x480.frames (one photo's frame,
which the writer then sends again and again, byte for byte).

Writes, for 1280x720 and 1920x1080: good-WxH.frames (every good kind of every photo), and for
1280x720 restart-1280x720.frames (the good kinds with restart markers only) and
bad-1280x720.frames (good and damaged frames interleaved); each is a sequence of records,
a 4-byte little-endian length and the frame. Beside each, a .kinds file names each record's kind,
one per line, so a test can tell what a captured sequence number should hold.
"""

import os
import random
import struct
import subprocess
import sys

SIZES = [(1280, 720), (1920, 1080)]


def run(arguments, data=None):
    result = subprocess.run(arguments, input=data, capture_output=True)
    if result.returncode != 0:
        sys.exit(f"make-loopback-frames: {arguments[0]} failed: {result.stderr.decode(errors='replace')}")
    return result.stdout, result.stderr


def ppm(photo, width, height):
    """The photo scaled to cover width x height and cropped to it, as 8-bit RGB."""
    scale = f"scale={width}:{height}:force_original_aspect_ratio=increase,crop={width}:{height}"
    out, _ = run(["ffmpeg", "-v", "error", "-i", photo, "-vf", scale, "-frames:v", "1",
                  "-f", "image2pipe", "-vcodec", "ppm", "-"])
    return out


def ffmpeg_jpeg(photo, width, height):
    scale = f"scale={width}:{height}:force_original_aspect_ratio=increase,crop={width}:{height}"
    out, _ = run(["ffmpeg", "-v", "error", "-i", photo, "-vf", scale, "-frames:v", "1",
                  "-pix_fmt", "yuvj422p", "-q:v", "5", "-f", "image2pipe", "-vcodec", "mjpeg", "-"])
    return out


def cjpeg(image, restart):
    # 4:2:2 (2x1) as webcams send; the standard Huffman tables (no -optimize), so that dropping
    # the DHT segments leaves a frame any decoder that adds the standard tables reads right.
    arguments = ["cjpeg", "-quality", "80", "-sample", "2x1,1x1,1x1"]
    if restart:
        arguments += ["-restart", "1"]
    out, _ = run(arguments, image)
    return out


def segments(jpeg):
    """The marker segments before the scan, as (marker, bytes), and the rest (SOS to EOI)."""
    if jpeg[:2] != b"\xff\xd8":
        sys.exit("make-loopback-frames: an encoder wrote something that is not a JPEG")
    position, found = 2, []
    while True:
        marker = jpeg[position + 1]
        length = struct.unpack(">H", jpeg[position + 2:position + 4])[0]
        if marker == 0xDA:
            return found, jpeg[position:]
        found.append((marker, jpeg[position:position + 2 + length]))
        position += 2 + length


def rebuild(found, rest):
    return b"\xff\xd8" + b"".join(segment for _, segment in found) + rest


def uvc(jpeg):
    """DHT removed, JFIF's APP0 replaced by the "AVI1" APP0 UVC cameras write."""
    found, rest = segments(jpeg)
    kept = [(marker, segment) for marker, segment in found if marker not in (0xC4, 0xE0)]
    avi1 = b"\xff\xe0\x00\x10AVI1" + bytes(10)
    return rebuild([(0xE0, avi1)] + kept, rest)


def has_marker(jpeg, marker):
    found, rest = segments(jpeg)
    return any(m == marker for m, _ in found)


def decode_warnings(jpeg):
    """djpeg's complaints about a frame (libjpeg's warnings: corrupt data, premature end)."""
    result = subprocess.run(["djpeg", "-outfile", os.devnull], input=jpeg, capture_output=True)
    return result.returncode, result.stderr.decode(errors="replace").strip()


def bitflip(jpeg):
    """Entropy-coded bytes inverted in the middle of the scan, never creating a marker, at the
    first place where djpeg then warns (a flip can decode silently to other pixels)."""
    _, rest = segments(jpeg)
    scan_start = len(jpeg) - len(rest)
    for fraction in (0.5, 0.4, 0.6, 0.3, 0.7):
        data = bytearray(jpeg)
        start = scan_start + int(len(rest) * fraction)
        for index in range(start, start + 48):
            if data[index] in (0xFF, 0x00) or data[index - 1] == 0xFF:
                continue
            flipped = data[index] ^ 0x5A
            if flipped != 0xFF:
                data[index] = flipped
        status, warnings = decode_warnings(bytes(data))
        if status != 0 or warnings:
            return bytes(data)
    sys.exit("make-loopback-frames: no bit flip made djpeg warn")


def write_records(path, frames):
    with open(path + ".partial", "wb") as out:
        for _, frame in frames:
            out.write(struct.pack("<I", len(frame)))
            out.write(frame)
    os.replace(path + ".partial", path)
    with open(path.replace(".frames", ".kinds") + ".partial", "w") as out:
        out.write("".join(kind + "\n" for kind, _ in frames))
    os.replace(path.replace(".frames", ".kinds") + ".partial", path.replace(".frames", ".kinds"))


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: make-loopback-frames.py OUTDIR PHOTO...")
    out, photos = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    for width, height in SIZES:
        good = []
        for photo in photos:
            image = ppm(photo, width, height)
            plain = ffmpeg_jpeg(photo, width, height)
            restart = cjpeg(image, restart=True)
            if not has_marker(restart, 0xDD):
                sys.exit("make-loopback-frames: cjpeg -restart 1 wrote no DRI segment")
            good += [("ffmpeg", plain), ("uvc", uvc(cjpeg(image, restart=False))), ("restart", restart),
                     ("uvc-restart", uvc(restart)), ("padded", plain + bytes(8192))]
        for kind, frame in good:
            status, warnings = decode_warnings(frame)
            if status != 0 or warnings:
                sys.exit(f"make-loopback-frames: a good {kind} frame does not decode cleanly: {warnings}")
        write_records(os.path.join(out, f"good-{width}x{height}.frames"), good)
        if (width, height) != (1280, 720):
            continue
        # Only the kinds with restart markers: every frame the camera delivers can be spliced, so
        # a live annotation can be checked frame by frame whichever frames it drew (a loaded guest
        # skips some, and five in a row of the mixed pass may hold none with markers).
        write_records(os.path.join(out, f"restart-{width}x{height}.frames"),
                      [(kind, frame) for kind, frame in good if kind in ("restart", "uvc-restart")])
        plain = [frame for kind, frame in good if kind == "ffmpeg"]
        buffer_size = width * height * 4
        oversize = plain[0][:-2] + b"\x55" * (buffer_size + 4096 - len(plain[0])) + b"\xff\xd9"
        bad = [("ffmpeg", plain[0]), ("truncated", plain[1][:len(plain[1]) * 6 // 10]),
               ("uvc", good[1][1]), ("bitflip", bitflip(plain[2 % len(plain)])),
               ("restart", good[2][1]), ("zeros", bytes(65536)),
               ("ffmpeg", plain[1 % len(plain)]), ("oversize", oversize)]
        write_records(os.path.join(out, f"bad-{width}x{height}.frames"), bad)
    # A capped lens: dark grey noise (6-14), a different draw for each frame (a fixed seed, so the
    # files are the same on every run).
    generator = random.Random(640480)
    dark = []
    for _ in range(8):
        pixels = bytes(generator.randint(6, 14) for _ in range(640 * 480 * 3))
        dark.append(("dark", cjpeg(b"P6\n640 480\n255\n" + pixels, restart=False)))
    write_records(os.path.join(out, "dark-640x480.frames"), dark)
    write_records(os.path.join(out, "frozen-640x480.frames"), [("frozen", ffmpeg_jpeg(photos[0], 640, 480))])


if __name__ == "__main__":
    main()
