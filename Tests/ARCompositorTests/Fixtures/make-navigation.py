#!/usr/bin/env python3
"""Writes expected-navigation.json: route lengths, positions along routes and distances from them,
computed with PROJ's geodesic (pyproj.Geod) and a local azimuthal equidistant projection, never
with arcapture's code.

- `synthetic`: a route built leg by leg with Geod.fwd (known lengths and turns: left 90°, slight
  right 30°, sharp right 140°, U-turn 175°), so its manoeuvres and their distances are known.
- `visnjan`: the 104 track points of samples/gpx/around-visnjan-with-car.gpx with each point's
  geodesic distance from the start (sum of Geod.inv over the segments) and straight to the end, and points set 25 m and 70 m
  to the left of the middle of the first eight segments 30 m or longer, with their true distance from the whole polyline and
  the distance along the route of the nearest point, measured in an azimuthal equidistant
  projection centred on each point (exact distances from the centre).

Regenerate with:
    pip install pyproj
    python3 make-navigation.py > expected-navigation.json
"""
import json
import math
import re
import sys
from pathlib import Path

import pyproj

geod = pyproj.Geod(ellps="WGS84")
here = Path(__file__).resolve().parent


def synthetic():
    lat, lon = 45.2735, 13.7142
    legs = [(0.0, 200.0), (270.0, 150.0), (300.0, 100.0), (80.0, 120.0), (255.0, 80.0)]
    vertices = [(lat, lon)]
    for azimuth, length in legs:
        lon, lat, _ = geod.fwd(lon, lat, azimuth, length)
        vertices.append((lat, lon))
    along = [0.0]
    for (a, b) in zip(vertices, vertices[1:]):
        along.append(along[-1] + geod.inv(a[1], a[0], b[1], b[0])[2])
    manoeuvres = [
        {"kind": "left", "turn": -90.0, "along": along[1]},
        {"kind": "slight-right", "turn": 30.0, "along": along[2]},
        {"kind": "sharp-right", "turn": 140.0, "along": along[3]},
        {"kind": "u-turn", "turn": 175.0, "along": along[4]},
        {"kind": "arrive", "turn": 0.0, "along": along[5]},
    ]
    return {"vertices": [list(v) for v in vertices], "length": along[-1], "manoeuvres": manoeuvres}


def track_points(path):
    text = path.read_text()
    points = []
    for match in re.finditer(r'<trkpt\s+lat="([-0-9.]+)"\s+lon="([-0-9.]+)"', text):
        points.append((float(match.group(1)), float(match.group(2))))
    return points


def nearest_on_polyline(points, along, lat, lon):
    """Distance from (lat, lon) to the polyline and the along-route distance of the nearest point,
    in an azimuthal equidistant projection centred on (lat, lon)."""
    proj = pyproj.Proj(proj="aeqd", lat_0=lat, lon_0=lon, ellps="WGS84")
    xy = [proj(p[1], p[0]) for p in points]
    best = (math.inf, 0.0)
    for i, (a, b) in enumerate(zip(xy, xy[1:])):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, -(a[0] * dx + a[1] * dy) / length2))
        px, py = a[0] + t * dx, a[1] + t * dy
        distance = math.hypot(px, py)
        if distance < best[0]:
            best = (distance, along[i] + t * (along[i + 1] - along[i]))
    return best


def visnjan():
    points = track_points(here.parents[2] / "samples" / "gpx" / "around-visnjan-with-car.gpx")
    along = [0.0]
    for (a, b) in zip(points, points[1:]):
        along.append(along[-1] + geod.inv(a[1], a[0], b[1], b[0])[2])
    offsets = []
    for i in range(2, len(points) - 2):
        a, b = points[i], points[i + 1]
        azimuth, _, length = geod.inv(a[1], a[0], b[1], b[0])
        if length < 30 or len(offsets) >= 16:
            continue
        mid_lon, mid_lat, _ = geod.fwd(a[1], a[0], azimuth, length / 2)
        for side in (25.0, 70.0):
            lon, lat, _ = geod.fwd(mid_lon, mid_lat, azimuth - 90, side)
            distance, at = nearest_on_polyline(points, along, lat, lon)
            offsets.append({"segment": i, "offset": side, "lat": lat, "lon": lon, "distance": distance, "along": at})
    end = points[-1]
    to_end = [geod.inv(p[1], p[0], end[1], end[0])[2] for p in points]
    return {"points": [list(p) for p in points], "along": along, "to_end": to_end, "length": along[-1], "offsets": offsets}


json.dump(
    {"pyproj": pyproj.__version__, "proj": pyproj.proj_version_str, "synthetic": synthetic(), "visnjan": visnjan()},
    sys.stdout,
    indent=1,
)
print()
