#!/usr/bin/env python3
"""Writes expected-projection.json: geometry cases whose expected values come from independent code.

- ECEF and ENU come from PROJ (pyproj): `+proj=cart` and `+proj=topocentric` on WGS84.
- POI positions at a given distance and azimuth come from PROJ's geodesic (`pyproj.Geod.fwd`).
- Pixels come from OpenCV's `cv2.projectPoints` (its own pinhole and distortion code), given the
  ENU-to-camera rotation built here from geometry spec section 3 (the rows x, y, z written out).
- Bearing and elevation use the spec's atan2 formulas on PROJ's ENU; the monotonic radius of the
  distortion is found with numpy's polynomial roots.

Nothing here calls arcapture. Regenerate with:
    pip install pyproj opencv-python-headless numpy
    python3 make-expected.py > expected-projection.json
Versions used are recorded in the output.
"""
import json
import math

import cv2
import numpy as np
import pyproj

geod = pyproj.Geod(ellps="WGS84")


def enu(device, lat, lon, alt):
    t = pyproj.Transformer.from_pipeline(
        "+proj=pipeline +step +proj=cart +ellps=WGS84 "
        f"+step +proj=topocentric +ellps=WGS84 +lat_0={device['lat']!r} +lon_0={device['lon']!r} +h_0={device['alt']!r}"
    )
    # pipeline input order for +proj=cart is (lon, lat, h) in degrees
    e, n, u = t.transform(lon, lat, alt)
    return e, n, u


def ecef(lat, lon, alt):
    t = pyproj.Transformer.from_pipeline("+proj=cart +ellps=WGS84")
    return t.transform(lon, lat, alt)


def rotation(heading, pitch, roll):
    h, p, r = (math.radians(a) for a in (heading, pitch, roll))
    z = np.array([math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), math.sin(p)])
    x0 = np.array([math.cos(h), -math.sin(h), 0.0])
    y0 = np.array([math.sin(h) * math.sin(p), math.cos(h) * math.sin(p), -math.cos(p)])
    x = math.cos(r) * x0 + math.sin(r) * y0
    y = -math.sin(r) * x0 + math.cos(r) * y0
    return np.vstack([x, y, z])


def monotonic_radius(coefficients, model):
    """Smallest r > 0 where d/dr [r * radial(r^2)] = 0 (inf if none below 20)."""
    if model == "none":
        return math.inf
    k1, k2, p1, p2, k3 = coefficients[:5]
    if model == "plumb_bob":
        # d/dr (r + k1 r^3 + k2 r^5 + k3 r^7) = 1 + 3k1 r^2 + 5k2 r^4 + 7k3 r^6, as a polynomial in s = r^2
        roots = np.roots([7 * k3, 5 * k2, 3 * k1, 1])
    else:
        k4, k5, k6 = coefficients[5:8]
        # f(r) = r N(s)/D(s), s = r^2; f'(r) = (N + 2s N') D - 2s N D'  (over D^2): numerator polynomial in s
        N = np.poly1d([k3, k2, k1, 1])
        D = np.poly1d([k6, k5, k4, 1])
        s = np.poly1d([1, 0])
        roots = (((N + 2 * s * N.deriv()) * D) - 2 * s * N * D.deriv()).roots
        roots = list(roots) + list(D.roots)  # the denominator reaching zero ends the range too
    real = [r.real for r in roots if abs(r.imag) < 1e-12 and r.real > 0]
    r = math.sqrt(min(real)) if real else math.inf
    return r if r <= 20 else math.inf


def case(name, device, camera, poi):
    e, n, u = enu(device, poi["lat"], poi["lon"], poi["alt"])
    R = rotation(device["heading"], device["pitch"], device["roll"])
    cam = R @ np.array([e, n, u])
    horizontal = math.hypot(e, n)
    bearing = 0.0 if horizontal < 1e-6 else math.degrees(math.atan2(e, n)) % 360
    if bearing >= 360:  # -1e-17 % 360 is 360.0 in floating point; the range is [0, 360)
        bearing = 0.0
    expected = {
        "east": e, "north": n, "up": u, "distance": math.sqrt(e * e + n * n + u * u), "bearing": bearing,
        "elevation": math.degrees(math.atan2(u, horizontal)), "depth": float(cam[2]), "u": None, "v": None,
        "in_view": False,
    }
    model = camera.get("model", "none")
    coefficients = camera.get("coefficients", [])
    if cam[2] > 0.1:
        x, y = cam[0] / cam[2], cam[1] / cam[2]
        if math.hypot(x, y) <= monotonic_radius(coefficients, model):
            K = np.array([[camera["fx"], 0, camera["cx"]], [0, camera["fy"], camera["cy"]], [0, 0, 1.0]])
            dist = np.array(coefficients if model != "none" else [0.0] * 5, dtype=np.float64)
            pixels, _ = cv2.projectPoints(cam.reshape(1, 1, 3), np.zeros(3), np.zeros(3), K, dist)
            pu, pv = (float(c) for c in pixels[0][0])
            expected.update(u=pu, v=pv, in_view=0 <= pu < camera["width"] and 0 <= pv < camera["height"])
    return {"name": name, "device": device, "camera": camera, "poi": poi, "expected": expected}


def at(device, distance, azimuth, dalt=0.0):
    lon, lat, _ = geod.fwd(device["lon"], device["lat"], azimuth, distance)
    return {"lat": lat, "lon": lon, "alt": device["alt"] + dalt}


def fov_camera(hfov, width, height):
    f = (width / 2) / math.tan(math.radians(hfov) / 2)
    return {"width": width, "height": height, "fx": f, "fy": f, "cx": width / 2, "cy": height / 2, "hfov": hfov}


def dev(lat, lon, alt, heading=0.0, pitch=0.0, roll=0.0):
    return {"lat": lat, "lon": lon, "alt": alt, "heading": heading, "pitch": pitch, "roll": roll}


cases = []
paris = dev(48.8583701, 2.2944813, 100.0)
cam70 = fov_camera(70, 1280, 720)
for azimuth in (0, 90, 180, 270, 45):
    for heading in (0, 90, 180, 270, 359.9, -0.1, 450):
        d = dict(paris, heading=heading)
        cases.append(case(f"cardinal az {azimuth} heading {heading}", d, cam70, at(paris, 100, azimuth)))
for pitch in (-30, -10, 10, 30):
    cases.append(case(f"pitch {pitch}", dict(paris, pitch=pitch), cam70, at(paris, 100, 5, 10)))
for roll in (-20, 20, 90, 180):
    cases.append(case(f"roll {roll}", dict(paris, roll=roll, heading=10), cam70, at(paris, 100, 25, 15)))
cases.append(case("pitch and roll together", dict(paris, heading=200, pitch=12, roll=-7), cam70, at(paris, 250, 190, 30)))
cases.append(case("behind the camera", dict(paris, heading=0), cam70, at(paris, 50, 180)))
cases.append(case("inside the near plane", dict(paris, heading=0), cam70, at(paris, 0.05, 0)))
cases.append(case("0.2 m away", dict(paris, heading=30), cam70, at(paris, 0.2, 31)))
cases.append(case("1 m away", dict(paris, heading=30), cam70, at(paris, 1, 20, -0.2)))
cases.append(case("right edge, just inside", dict(paris, heading=0), cam70, at(paris, 500, 34.9)))
cases.append(case("right edge, just outside", dict(paris, heading=0), cam70, at(paris, 500, 35.1)))
cases.append(case("20 km: curvature", dict(paris, heading=90, pitch=-0.05), cam70, at(paris, 20_000, 91)))
cases.append(case("80 km: curvature", dict(paris, heading=270), cam70, at(paris, 80_000, 268, 500)))
cases.append(case("straight above", dict(paris, heading=0, pitch=89), cam70, {"lat": paris["lat"], "lon": paris["lon"], "alt": 300.0}))
svalbard = dev(78.2232, 15.6267, 20.0, heading=135)
cases.append(case("high latitude", svalbard, cam70, at(svalbard, 3000, 140, 400)))
near_pole = dev(89.99, 45.0, 10.0, heading=0)
cases.append(case("near the pole", near_pole, cam70, at(near_pole, 800, 0)))
sydney = dev(-33.8568, 151.2153, 5.0, heading=300, pitch=3)
cases.append(case("southern and eastern hemispheres", sydney, cam70, at(sydney, 1200, 295, 130)))
rio = dev(-22.9519, -43.2105, 700.0, heading=120, pitch=-10)
cases.append(case("southern and western hemispheres", rio, cam70, at(rio, 4000, 118, -690)))
fiji = dev(-16.7, 179.9995, 2.0, heading=90)
cases.append(case("across the antimeridian", fiji, cam70, at(fiji, 600, 92)))
cases.append(case("altitude difference: a tower", dict(paris, heading=0, pitch=20), cam70, at(paris, 300, 2, 160)))
distorted = {
    "width": 1280, "height": 720, "fx": 880.0, "fy": 880.0, "cx": 641.2, "cy": 358.7, "model": "plumb_bob",
    "coefficients": [-0.28, 0.07, 0.0009, -0.0004, 0.0],
}
rational = {
    "width": 1280, "height": 720, "fx": 700.0, "fy": 702.0, "cx": 630.0, "cy": 365.0, "model": "rational_polynomial",
    "coefficients": [0.3, -0.02, 0.001, 0.0005, 0.001, 0.65, 0.01, 0.002],
}
for azimuth in (0, 20, 33, 38):
    cases.append(case(f"plumb_bob, {azimuth} deg off axis", dict(paris, heading=0), distorted, at(paris, 200, azimuth, 30)))
    cases.append(case(f"rational_polynomial, {azimuth} deg off axis", dict(paris, heading=0), rational, at(paris, 200, azimuth, 30)))
barrel = {
    "width": 1280, "height": 720, "fx": 600.0, "fy": 600.0, "cx": 640.0, "cy": 360.0, "model": "plumb_bob",
    "coefficients": [-0.35, 0.02, 0.0, 0.0, 0.0],
}
cases.append(case("strong barrel, 40 deg off axis (inside the monotonic range)", dict(paris, heading=0), barrel, at(paris, 50, 40)))
cases.append(case("strong barrel, 60 deg off axis (beyond the monotonic range)", dict(paris, heading=0), barrel, at(paris, 50, 60)))

def finite_or_none(value):
    return value if math.isfinite(value) else None


ecef_cases = []
for lat, lon, alt in [(0, 0, 0), (90, 0, 0), (-90, 0, 0), (48.8583701, 2.2944813, 100), (-33.8568, 151.2153, 5),
                      (-22.9519, -43.2105, 700), (78.2232, 15.6267, 20), (45, -120, 8848), (-16.7, 179.9999, -50)]:
    x, y, z = ecef(lat, lon, alt)
    ecef_cases.append({"lat": lat, "lon": lon, "alt": alt, "x": x, "y": y, "z": z})

monotonic = [
    {"model": "plumb_bob", "coefficients": barrel["coefficients"],
     "radius": finite_or_none(monotonic_radius(barrel["coefficients"], "plumb_bob"))},
    {"model": "plumb_bob", "coefficients": distorted["coefficients"],
     "radius": finite_or_none(monotonic_radius(distorted["coefficients"], "plumb_bob"))},
    {"model": "rational_polynomial", "coefficients": rational["coefficients"],
     "radius": finite_or_none(monotonic_radius(rational["coefficients"], "rational_polynomial"))},
]

print(json.dumps({
    "generator": f"make-expected.py with pyproj {pyproj.__version__} (PROJ {pyproj.proj_version_str}), "
                 f"OpenCV {cv2.__version__}, numpy {np.__version__}",
    "projection": cases, "ecef": ecef_cases, "monotonic": monotonic,
}, indent=1, allow_nan=False, default=lambda v: None))
