#!/usr/bin/env python3
"""The independent reading of samples/fit/*.fit that FITTrackTests checks arcapture's against:
fitdecode (PyPI, MIT; https://github.com/polyvertex/fitdecode), run once here and its output kept
as fit-expected/<name>.csv, so the tests need neither Python nor the network.

For each file: a comment line with fitdecode's version, its count of `record` messages, how many
have a position, and the error it stopped with (if any); then one line per record with a position
(every one up to 600, else every 7th and the last): the UTC time in Unix seconds, latitude and
longitude in semicircles as stored, the altitude in metres as fitdecode scales it
(`enhanced_altitude`, else `altitude`; empty when neither), and the speed in m/s
(`enhanced_speed`, else `speed`; empty when neither), and 1 when its time is after the last such
record's kept before it (0: a second record in the same second, or a time going back, which a track
cannot hold); the comment line counts the 0s too.

    python3 -m venv .build/fit-venv && .build/fit-venv/bin/pip install fitdecode==0.10.0
    .build/fit-venv/bin/python Tests/PositioningTests/Fixtures/make-fit-expected.py
"""
import glob
import os
import warnings

import fitdecode

warnings.simplefilter("ignore")
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fit-expected")
os.makedirs(out, exist_ok=True)


def value(frame, *names):
    for name in names:
        if frame.has_field(name):
            found = frame.get_value(name)
            if found is not None:
                return found
    return None


for path in sorted(glob.glob(os.path.join(root, "samples", "fit", "*.fit"))):
    records = 0
    rows = []
    error = ""
    last = None
    repeated = 0
    try:
        with fitdecode.FitReader(path) as fit:
            for frame in fit:
                if not (isinstance(frame, fitdecode.FitDataMessage) and frame.name == "record"):
                    continue
                records += 1
                lat = value(frame, "position_lat")
                lon = value(frame, "position_long")
                if lat is None or lon is None:
                    continue
                time = frame.get_value("timestamp")
                altitude = value(frame, "enhanced_altitude", "altitude")
                speed = value(frame, "enhanced_speed", "speed")
                seconds = time.timestamp()
                kept = last is None or seconds > last
                if kept:
                    last = seconds
                else:
                    repeated += 1
                rows.append(
                    "%d,%d,%d,%s,%s,%d"
                    % (
                        int(time.timestamp()),
                        lat,
                        lon,
                        "" if altitude is None else repr(float(altitude)),
                        "" if speed is None else repr(float(speed)),
                        1 if kept else 0,
                    )
                )
    except Exception as exc:  # noqa: BLE001 - the error is part of the expected reading
        error = str(exc).replace("\n", " ")
    kept = rows if len(rows) <= 600 else rows[::7] + ([rows[-1]] if (len(rows) - 1) % 7 else [])
    name = os.path.basename(path)
    with open(os.path.join(out, name.replace(".fit", ".csv")), "w") as handle:
        handle.write(
            "# fitdecode %s: %d records, %d with a position, %d not after the one before; error: %s\n"
            % (fitdecode.__version__, records, len(rows), repeated, error or "none")
        )
        handle.write("".join(row + "\n" for row in kept))
    print(name, records, len(rows), error)
