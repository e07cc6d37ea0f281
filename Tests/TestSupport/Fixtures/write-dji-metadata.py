#!/usr/bin/python3
"""Writes DJI djmd metadata messages from the vendored schemas, with Google's protobuf for Python
(Debian's python3-protobuf and protoc): the writer the tests read arcapture's djmd decoding
against, independent of libprotobuf-c and of protoc-c's generated code.

    write-dji-metadata.py PRODUCT < frames.json > messages.hex

PRODUCT is ac203 (Osmo Action 4/5), wa530 (Avata 2), oq101 (Osmo 360), or ae2503 or ae2504 (XTRA
Edge and Edge Pro, from XTRA's own schemas and library in proto/xtra/). frames.json is a list
of objects, one a message: "clip" (optional: {"proto_file_name", "product_name"}, the clip header
a clip's first message carries), and the frame's GPS: "lat", "lon" (degrees, or radians with
"unit": 0), "alt_mm", "alt_type" (0 barometer, 1 GPS fused, 2 RTK), "status" (0 normal,
1 invalid), "time" (the GPS time text); wa530 also "yaw", "pitch", "roll" (tenths of a degree),
and wa530, ae2503 and ae2504 "north", "east" (m/s). Each message is printed as one line of hex.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
PROTO = os.path.join(ROOT, "Sources", "CDJIMetadata", "proto")
SCHEMAS = {"ac203": "dvtm_ac203", "wa530": "dvtm_eagle4_wa530", "oq101": "dvtm_oq101", "ae2503": "xtra/dvtm_ae2503",
           "ae2504": "xtra/dvtm_ae2504"}


def gps(target, frame):
    coordinates = target.gps_coordinates
    coordinates.position_coord_unit = frame.get("unit", 1)
    coordinates.latitude = frame["lat"]
    coordinates.longitude = frame["lon"]
    target.gps_altitude_mm = frame.get("alt_mm", 0)
    target.gps_altitude_type = frame.get("alt_type", 1)
    target.gps_status = frame.get("status", 0)
    if "time" in frame:
        target.has_gps_time = True
        target.gps_time.time = frame["time"]


def main():
    product = sys.argv[1]
    frames = json.load(sys.stdin)
    folder, _, schema = SCHEMAS[product].rpartition("/")
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(
            ["protoc", f"--proto_path={os.path.join(PROTO, folder)}", f"--python_out={work}", "dvtm_library.proto",
             f"{schema}.proto"], check=True)
        sys.path.insert(0, work)
        module = __import__(f"{schema}_pb2")
    for number, frame in enumerate(frames):
        message = module.ProductMeta()
        if "clip" in frame:
            header = message.clip_meta.clip_meta_header
            header.proto_file_name = frame["clip"]["proto_file_name"]
            header.product_name = frame["clip"]["product_name"]
        meta = message.frame_meta
        meta.frame_meta_header.frame_seq_num = number
        meta.frame_meta_header.frame_timestamp = 1_000_000 + number * 33_367
        if "lat" in frame:
            if product == "ac203":
                gps(meta.gps_frame_meta.gps_basic, frame)
            elif product == "wa530":
                drone = meta.drone_frame_meta
                gps(drone.gps, frame)
                drone.attitude.yaw_decidegree = frame.get("yaw", 0)
                drone.attitude.pitch_decidegree = frame.get("pitch", 0)
                drone.attitude.roll_decidegree = frame.get("roll", 0)
                drone.velocity.velocity_x = frame.get("north", 0)
                drone.velocity.velocity_y = frame.get("east", 0)
                drone.relative_altitude.relative_altitude_mm = 12_000
                drone.relative_altitude.is_relative_altitude_valid = True
            elif product in ("ae2503", "ae2504"):
                remote = meta.bluetooth_rc_frame_meta
                gps(remote.gps_basic, frame)
                remote.velocity.velocity_x = frame.get("north", 0)
                remote.velocity.velocity_y = frame.get("east", 0)
                # What the rest of a frame holds, which the reader must skip: the camera's ISO and
                # the IMU's attitude.
                meta.camera_frame_meta.iso.iso = 400
                meta.imu_frame_meta.IMU_attitude_after_fusion.timestamp = 1_000 + number
            else:
                gps(meta.gimbal_frame_meta.gps_basic, frame)
        print(message.SerializeToString().hex())


main()
