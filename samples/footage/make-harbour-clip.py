#!/usr/bin/env python3
"""Makes samples/footage/: a short boat-camera clip of Helsinki's West Harbour, its GPX track and
its camera calibration, from one real photo (samples/photos/helsinki_west_harbour_nokia83.jpg,
CC BY-SA 4.0, Antti Ketola; see samples/photos/SOURCES.md).

    python3 samples/footage/make-harbour-clip.py      (from the package root; needs ffmpeg)

The story: a camera fixed to a boat's bow, facing forward, as the boat leaves the photo's spot and
turns from 47° to 73° (true) over 6 seconds at 5 m/s. Each frame is what a 960x400 pinhole camera
with a 70° horizontal field of view sees looking along the boat's course at that moment, rendered
from the photo with ffmpeg's v360 filter (a real rotation of the view, not a sliding crop, so the
scene moves the way it would). The photo was taken looking about 60° true (100° wide, its horizon
4.2° below the middle), which is where the rotations are measured from. The track is the boat's
path, worked out from those headings and the speed with pyproj's geodesic when it is installed, else
a local flat-earth step (30 m: the difference is far below a millimetre), at 2 fixes per second.
Annotate it with `--heading-from-course`: the camera looks where the boat goes.
"""
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PHOTO = os.path.join(HERE, "..", "photos", "helsinki_west_harbour_nokia83.jpg")
START = (60.146706, 24.906772)  # the photo's EXIF position
PHOTO_HEADING, PHOTO_HFOV, PHOTO_WIDTH, PHOTO_HEIGHT = 60.0, 100.0, 1600, 686
HORIZON_BELOW_CENTRE = 4.2  # degrees: the photo's horizon is this far below its middle
WIDTH, HEIGHT, HFOV = 960, 400, 70.0
FPS, SECONDS, SPEED = 8, 6.0, 5.0
COURSE_FROM, COURSE_TO = 47.0, 73.0
START_DATE, START_SECOND = "2022-08-14", 32  # the photo's capture time, 11:12:32 UTC


def course(t):
    """The boat's course at t seconds: a smooth turn (smoothstep) from COURSE_FROM to COURSE_TO."""
    s = min(max(t / SECONDS, 0.0), 1.0)
    return COURSE_FROM + (COURSE_TO - COURSE_FROM) * s * s * (3 - 2 * s)


def positions(times):
    """The boat's position at each time, integrating the course in 1 ms steps."""
    try:
        from pyproj import Geod
        geod = Geod(ellps="WGS84")
        def step(lat, lon, bearing, metres):
            lon2, lat2, _ = geod.fwd(lon, lat, bearing, metres)
            return lat2, lon2
    except ImportError:
        def step(lat, lon, bearing, metres):
            # WGS84's radii of curvature at this latitude: meridian (north) and prime vertical (east).
            a, e2 = 6_378_137.0, 0.006_694_379_990_14
            sin_lat = math.sin(math.radians(lat))
            w = math.sqrt(1 - e2 * sin_lat * sin_lat)
            meridian, prime = a * (1 - e2) / w**3, a / w
            b = math.radians(bearing)
            lat2 = lat + math.degrees(metres * math.cos(b) / meridian)
            lon2 = lon + math.degrees(metres * math.sin(b) / (prime * math.cos(math.radians(lat))))
            return lat2, lon2
    lat, lon = START
    t, dt, result = 0.0, 0.001, []
    for target in times:
        while t < target - 1e-9:
            h = min(dt, target - t)
            lat, lon = step(lat, lon, course(t + h / 2), SPEED * h)
            t += h
        result.append((lat, lon))
    return result


def render_frames(directory):
    focal = (PHOTO_WIDTH / 2) / math.tan(math.radians(PHOTO_HFOV / 2))
    photo_vfov = 2 * math.degrees(math.atan((PHOTO_HEIGHT / 2) / focal))
    out_focal = (WIDTH / 2) / math.tan(math.radians(HFOV / 2))
    out_vfov = 2 * math.degrees(math.atan((HEIGHT / 2) / out_focal))
    frames = int(FPS * SECONDS)
    for index in range(frames):
        yaw = course(index / FPS) - PHOTO_HEADING
        view = (f"v360=input=flat:ih_fov={PHOTO_HFOV}:iv_fov={photo_vfov:.4f}:output=flat:h_fov={HFOV}:"
                f"v_fov={out_vfov:.4f}:yaw={yaw:.4f}:pitch={-HORIZON_BELOW_CENTRE}:w={WIDTH}:h={HEIGHT}:"
                "interp=cubic,format=yuvj422p")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", PHOTO, "-vf", view, "-q:v", "5",
                        os.path.join(directory, f"{index:03d}.jpg")], check=True)
    with open(os.path.join(HERE, "harbour.mjpeg"), "wb") as clip:
        for index in range(frames):
            with open(os.path.join(directory, f"{index:03d}.jpg"), "rb") as frame:
                clip.write(frame.read())
    return out_focal


def write_track():
    times = [i * 0.5 for i in range(int(SECONDS * 2) + 1)]
    points = []
    for t, (lat, lon) in zip(times, positions(times)):
        stamp = f"{START_DATE}T11:12:{START_SECOND + int(t):02d}.{int(round((t % 1) * 1000)):03d}Z"
        points.append(f'      <trkpt lat="{lat:.8f}" lon="{lon:.8f}"><ele>3.0</ele><time>{stamp}</time></trkpt>')
    gpx = "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<gpx version="1.1" creator="arcapture samples/footage/make-harbour-clip.py" '
        'xmlns="http://www.topografix.com/GPX/1/1">',
        "  <trk>",
        "    <name>harbour clip: leaving the West Harbour photo's spot, turning from 47° to 73°</name>",
        "    <trkseg>",
        *points,
        "    </trkseg>",
        "  </trk>",
        "</gpx>",
        "",
    ])
    with open(os.path.join(HERE, "harbour.gpx"), "w") as file:
        file.write(gpx)


def write_camera(focal):
    cx, cy = (WIDTH - 1) / 2, (HEIGHT - 1) / 2
    yaml = f"""# The harbour clip's camera: a {WIDTH}x{HEIGHT} pinhole with a {HFOV:g}° horizontal field of view and no
# distortion (the frames are rendered that way by make-harbour-clip.py), in ROS camera_info form.
image_width: {WIDTH}
image_height: {HEIGHT}
camera_name: harbour_clip
camera_matrix:
  rows: 3
  cols: 3
  data: [{focal:.3f}, 0, {cx}, 0, {focal:.3f}, {cy}, 0, 0, 1]
distortion_model: plumb_bob
distortion_coefficients:
  rows: 1
  cols: 5
  data: [0, 0, 0, 0, 0]
rectification_matrix:
  rows: 3
  cols: 3
  data: [1, 0, 0, 0, 1, 0, 0, 0, 1]
projection_matrix:
  rows: 3
  cols: 4
  data: [{focal:.3f}, 0, {cx}, 0, 0, {focal:.3f}, {cy}, 0, 0, 0, 1, 0]
"""
    with open(os.path.join(HERE, "harbour-camera.yaml"), "w") as file:
        file.write(yaml)


def main():
    with tempfile.TemporaryDirectory() as directory:
        focal = render_frames(directory)
    write_track()
    write_camera(focal)
    print(f"{HERE}/harbour.mjpeg: {int(FPS * SECONDS)} frames {WIDTH}x{HEIGHT} at {FPS} fps; harbour.gpx; "
          "harbour-camera.yaml", file=sys.stderr)


if __name__ == "__main__":
    main()
