import Foundation

/// The GoPro Karma drone's flight telemetry in one GPMF payload, which a HERO5 on a Karma records
/// in a device of its own instead of GPS5. The streams are the flight controller's MAVLink
/// messages, laid out by each stream's TYPE and scaled by its SCAL, and timed by the controller's
/// clock since it booted:
/// - GLPI (`Position`, MAVLink GLOBAL_POSITION_INT: time, latitude, longitude, altitude above sea
///   level, altitude above home, velocity north, east and down, heading), the fused position;
/// - GPRI (`GPS RAW`, GPS_RAW_INT: time, latitude, longitude, altitude above sea level, eph, epv,
///   speed, course, fix type, satellites), the receiver's own fix;
/// - ATTD (`Attitude`, ATTITUDE: time, roll, pitch, yaw in radians, their rates);
/// - SYST (`System Time`: the controller's boot time and UTC, each second).
///
/// Layouts and units as the clip `karma.mp4` in gopro/gpmf-parser's samples states them (TYPE
/// `LllllsssS`, `JlllSSSSBB`, `LffffffB`, `JJ`; its README does not describe these streams):
/// its ATTD yaw is within 3.8° of the course over ground while the drone moves, and SYST's UTC
/// minus its boot time stays within 2 ms over the clip, which puts the clip's first fix within a
/// second of the container's creation time.
public struct GPMFKarmaPayload: Sendable, Equatable {
    /// A position on the flight controller's clock.
    public struct Position: Sendable, Equatable {
        /// Seconds since the flight controller booted.
        public var bootTime: Double
        /// Degrees north.
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double
        /// Metres above mean sea level (MAVLink's altitudes are, unlike GPS5's).
        public var altitudeMeanSeaLevel: Double
        /// Ground speed, m/s.
        public var speed: Double
        /// Course over ground, degrees clockwise from north; nil when hovering.
        public var course: Double?
        /// The receiver's fix type: 0–1 none, 2 2D, 3 and up 3D (MAVLink GPS_FIX_TYPE); nil when
        /// the payload has no GPRI.
        public var fix: Int?
        /// The receiver's horizontal dilution of precision (GPRI's eph), when known.
        public var dilution: Double?
    }

    /// The drone's attitude on the flight controller's clock, in degrees.
    public struct Attitude: Sendable, Equatable {
        /// Seconds since the flight controller booted.
        public var bootTime: Double
        /// Clockwise from north (MAVLink's yaw, turned to 0–360).
        public var heading: Double
        /// The airframe's nose up; not the camera's, which the gimbal holds.
        public var pitch: Double
        /// The airframe's right side down; not the camera's.
        public var roll: Double
    }

    /// Below this ground speed (m/s) a drone's velocity gives no course.
    static let courseSpeed = 0.3
    /// SYST times before this (2010-01-01, seconds since 1970) are a clock not yet set: the Karma
    /// was sold from 2016.
    static let earliestUTC = 1_262_304_000.0

    /// The positions: GLPI's, or GPRI's when the payload has no GLPI.
    public var positions: [Position] = []
    /// Which stream ``positions`` come from: `GLPI` or `GPRI`.
    public var positionKey = "GLPI"
    /// The airframe's attitudes (ATTD).
    public var attitudes: [Attitude] = []
    /// For each SYST sample, UTC (seconds since 1970) minus the controller's boot time: what turns
    /// a boot time into UTC.
    public var clockOffsets: [Double] = []

    /// The Karma telemetry in `items` (a payload's `DEVC`s and their `STRM`s), nil without GLPI
    /// or GPRI.
    ///
    /// - Throws: ``GPMFError`` when one of these streams is damaged: its TYPE does not describe its
    ///   samples, its SCAL has the wrong count or a zero.
    public static func decode(_ items: [GPMFItem]) throws(GPMFError) -> GPMFKarmaPayload? {
        var fused: [Position] = []
        var raw: [Position] = []
        var payload = GPMFKarmaPayload()
        for device in items where device.key == "DEVC" {
            for stream in device.children where stream.key == "STRM" {
                var scale: [Double] = []
                var layout = ""
                for item in stream.children {
                    switch item.key {
                    case "SCAL": scale = try item.numbers()
                    case "TYPE": layout = item.text
                    case "GLPI":
                        fused += try item.structuredSamples(layout: layout, scale: scale, fields: 9).map(fusedPosition)
                    case "GPRI":
                        raw += try item.structuredSamples(layout: layout, scale: scale, fields: 10).map(rawPosition)
                    case "ATTD":
                        payload.attitudes += try item.structuredSamples(layout: layout, scale: scale, fields: 4).map(
                            attitude)
                    case "SYST":
                        // A controller without GPS time yet reports UTC 0 (1970): no offset from that.
                        let times = try item.structuredSamples(layout: layout, scale: scale, fields: 2)
                        payload.clockOffsets += times.filter { $0[1] >= earliestUTC }.map { $0[1] - $0[0] }
                    default: break
                    }
                }
            }
        }
        guard !fused.isEmpty || !raw.isEmpty else { return nil }
        if fused.isEmpty {
            payload.positions = raw
            payload.positionKey = "GPRI"
        } else {
            // The fused position carries no fix quality: the receiver's latest one serves.
            let receiver = raw.last
            payload.positions = fused.map { position in
                var position = position
                position.fix = receiver?.fix
                position.dilution = receiver?.dilution
                return position
            }
        }
        return payload
    }

    /// The UTC minus boot time that SYST samples agree on (their median), nil without SYST.
    public static func clockOffset(_ payloads: [GPMFKarmaPayload]) -> Double? {
        let offsets = payloads.flatMap(\.clockOffsets).filter(\.isFinite).sorted()
        return offsets.isEmpty ? nil : offsets[offsets.count / 2]
    }

    /// The positions as GPS samples, timed in UTC by `clockOffset` (untimed without it), their
    /// altitude above mean sea level.
    public func gps(clockOffset: Double?) -> GPMFGPSPayload {
        var payload = GPMFGPSPayload()
        payload.key = positionKey
        payload.altitudeIsMeanSeaLevel = true
        payload.samples = positions.map { position in
            GPMFGPSPayload.Sample(
                latitude: position.latitude, longitude: position.longitude, altitude: position.altitudeMeanSeaLevel,
                speed2D: position.speed, speed3D: position.speed,
                time: clockOffset.map { Date(timeIntervalSince1970: $0 + position.bootTime) },
                dilution: position.dilution, fix: position.fix, course: position.course)
        }
        return payload
    }

    /// GLPI: time (s), latitude, longitude, altitude (m above sea level), altitude above home,
    /// velocity north, east, down (m/s), heading.
    private static func fusedPosition(_ values: [Double]) -> Position {
        let speed = (values[5] * values[5] + values[6] * values[6]).squareRoot()
        return Position(
            bootTime: values[0], latitude: values[1], longitude: values[2], altitudeMeanSeaLevel: values[3],
            speed: speed, course: speed >= courseSpeed ? degrees360(atan2(values[6], values[5]) * 180 / .pi) : nil)
    }

    /// GPRI: time (s), latitude, longitude, altitude (m above sea level), eph, epv, speed (m/s),
    /// course (degrees), fix type, satellites. MAVLink gives eph as the dilution of precision
    /// × 100 (SCAL divides by 100), and 65535 for unknown.
    private static func rawPosition(_ values: [Double]) -> Position {
        Position(
            bootTime: values[0], latitude: values[1], longitude: values[2], altitudeMeanSeaLevel: values[3],
            speed: values[6], course: values[6] >= courseSpeed && values[7] < 360 ? values[7] : nil,
            fix: Int(exactly: values[8].rounded()), dilution: values[4] < 655 ? values[4] : nil)
    }

    /// ATTD: time (s), roll, pitch, yaw (radians), then rates.
    private static func attitude(_ values: [Double]) -> Attitude {
        Attitude(
            bootTime: values[0], heading: degrees360(values[3] * 180 / .pi), pitch: values[2] * 180 / .pi,
            roll: values[1] * 180 / .pi)
    }

    /// An angle in degrees turned to 0 ..< 360.
    private static func degrees360(_ degrees: Double) -> Double {
        let turned = degrees.truncatingRemainder(dividingBy: 360)
        return turned < 0 ? turned + 360 : turned
    }
}
