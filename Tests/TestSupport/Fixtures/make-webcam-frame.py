#!/usr/bin/env python3
"""Rebuilds webcam-640x480.mjpg from lund_01.jpg (shared/data/photos, BSD-2-Clause, see README.md).

USB (UVC) webcams send MJPEG frames without Huffman tables (DHT): the decoder must use the standard
tables of JPEG Annex K. This script makes a frame with that shape from a real photo:

    ffmpeg -i lund_01.jpg -vf scale=640:480 -pix_fmt yuvj422p -q:v 4 -huffman default -f mjpeg in.jpg
    python3 make-webcam-frame.py in.jpg webcam-640x480.mjpg

It keeps SOI, DQT, SOF0, the scan and EOI, drops every other segment (DHT, COM, ICC profile, JFIF),
and adds the "AVI1" APP0 segment UVC cameras write. `-huffman default` makes ffmpeg code the scan with
the Annex K tables, so dropping DHT leaves a valid frame.
"""
import sys

data = open(sys.argv[1], "rb").read()
assert data[:2] == b"\xff\xd8", "not a JPEG"
out = bytearray(b"\xff\xd8")
out += b"\xff\xe0\x00\x10AVI1" + bytes(10)  # UVC's APP0: length 16 = 2 + "AVI1" + 10 bytes
i = 2
while True:
    assert data[i] == 0xFF
    marker = data[i + 1]
    if marker == 0xDA:  # start of scan: the rest is entropy-coded data and EOI
        out += data[i:]
        break
    length = int.from_bytes(data[i + 2 : i + 4], "big")
    if marker in (0xDB, 0xC0):  # DQT, SOF0
        out += data[i : i + 2 + length]
    i += 2 + length
open(sys.argv[2], "wb").write(out)
