import Foundation

/// A copy of the GoPro MAX sample clip whose telemetry packets are written over with a GoPro
/// Karma drone's flight streams (GLPI, GPRI, ATTD, SYST), made here to test the reader on a real
/// MP4 container. The Karma sample clip (gopro/gpmf-parser's `karma.mp4`) is not in the
/// repository, so the streams follow the layouts and scales that clip states (TYPE `LllllsssS`,
/// `JlllSSSSBB`, `LffffffB`, `JJ`), written by an item writer of this file's own, sharing no code
/// with CaptureKit. Packets keep their size and place (ffprobe gives both): one `DEVC` of the
/// streams, then zeros.
public struct KarmaTelemetryVideo {
    /// One position and attitude the flight controller recorded.
    public struct Sample {
        /// Seconds since the controller booted.
        public var bootTime: Double
        /// Degrees north (written in 1e-7 degrees).
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double
        /// Metres above sea level (written in millimetres).
        public var altitude: Double
        /// The airframe's yaw in radians (MAVLink's: −π … π from north).
        public var yaw: Double

        /// A sample.
        public init(bootTime: Double, latitude: Double, longitude: Double, altitude: Double, yaw: Double) {
            self.bootTime = bootTime
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.yaw = yaw
        }
    }

    /// UTC minus the controller's boot time, as SYST states it.
    public static let clockOffset = 1_492_457_131.0
    /// GPRI's eph, the dilution of precision × 100.
    public static let eph = 120
    /// Samples a packet, each stream.
    public static let samplesPerPacket = 4

    /// The written file.
    public var path: URL
    /// Each telemetry packet's presentation time (by ffprobe) and its samples.
    public var packets: [(time: Double, samples: [Sample])] = []

    /// Writes `karma.mp4` in `directory` from `clip`. Without `systemTime` no SYST is written; with
    /// `unsetClock`, SYST says UTC 0 (a controller without GPS time); the packet numbered `damaged`,
    /// if any, gets a GLPI whose TYPE does not match its samples.
    public init(
        from clip: String, in directory: URL, systemTime: Bool = true, unsetClock: Bool = false, damaged: Int? = nil
    ) async throws {
        path = directory.appendingPathComponent("karma.mp4")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        let telemetry = try await GPMFReference.telemetryPackets(of: clip)
        for (index, packet) in telemetry.enumerated() {
            let samples = (0..<Self.samplesPerPacket).map { number -> Sample in
                let step = Double(index * Self.samplesPerPacket + number)
                return Sample(
                    bootTime: 100 + packet.time + Double(number) * 0.25, latitude: 33.1254 + step * 0.000_02,
                    longitude: -117.3311 - step * 0.000_01, altitude: 15.5 + step * 0.01, yaw: -0.5 + step * 0.001)
            }
            packets.append((packet.time, samples))
            var payload = Self.device(
                samples, systemTime: systemTime ? 100.5 + packet.time : nil, damaged: index == damaged,
                unsetClock: unsetClock)
            guard payload.count <= packet.size else {
                throw GPMFReference.ReferenceError("\(payload.count) bytes of streams do not fit \(packet.size)")
            }
            payload += [UInt8](repeating: 0, count: packet.size - payload.count)
            bytes.replaceSubrange(packet.position..<packet.position + packet.size, with: payload)
        }
        try Data(bytes).write(to: path)
    }

    /// One `DEVC` holding the four streams for `samples` (SYST at `systemTime`, when given; GLPI
    /// unless `fused` is false).
    public static func device(
        _ samples: [Sample], systemTime: Double?, damaged: Bool, fused: Bool = true, unsetClock: Bool = false
    ) -> [UInt8] {
        func microseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e6).rounded()) }
        func milliseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1e3).rounded()) }
        func degrees(_ value: Double) -> Int64 { Int64((value * 1e7).rounded()) }
        let position = stream(
            name: "Position", type: damaged ? "LllllsssL" : "LllllsssS",
            scale: [1000, 10_000_000, 10_000_000, 1000, 1000, 100, 100, 100, 100], key: "GLPI", size: 28,
            samples: samples.map { sample in
                field(milliseconds(sample.bootTime), 4) + field(degrees(sample.latitude), 4)
                    + field(degrees(sample.longitude), 4) + field(milliseconds(sample.altitude), 4)
                    + field(2000, 4) + field(300, 2) + field(-150, 2) + field(0, 2) + field(33_100, 2)
            })
        let raw = stream(
            name: "GPS RAW", type: "JlllSSSSBB",
            scale: [1_000_000, 10_000_000, 10_000_000, 1000, 100, 100, 100, 100, 1, 1],
            key: "GPRI", size: 30,
            samples: samples.map { sample in
                field(microseconds(sample.bootTime - 0.1), 8) + field(degrees(sample.latitude), 4)
                    + field(degrees(sample.longitude), 4) + field(milliseconds(sample.altitude), 4)
                    + field(Int64(eph), 2) + field(200, 2) + field(335, 2) + field(33_300, 2) + field(3, 1)
                    + field(12, 1)
            })
        let attitude = stream(
            name: "Attitude", type: "LffffffB", scale: [1000, 1, 1, 1, 1, 1, 1, 1], key: "ATTD", size: 29,
            samples: samples.map { sample in
                field(milliseconds(sample.bootTime - 0.006), 4) + float(0.01) + float(-0.2) + float(Float(sample.yaw))
                    + float(0) + float(0) + float(0) + field(0, 1)
            })
        var streams = (fused ? position : []) + raw + attitude
        if let systemTime {
            streams += stream(
                name: "System Time", type: "JJ", scale: [1_000_000, 1000], key: "SYST", size: 16,
                samples: [
                    field(microseconds(systemTime), 8)
                        + field(unsetClock ? 0 : milliseconds(systemTime + clockOffset), 8)
                ])
        }
        return item("DEVC", type: 0, size: 4, count: streams.count / 4, streams)
    }

    /// A `STRM` as the Karma's: its name, TYPE, SCAL, then the samples.
    static func stream(name: String, type: String, scale: [Int64], key: String, size: Int, samples: [[UInt8]])
        -> [UInt8]
    {
        let contents =
            item("STNM", type: "c", size: 1, count: name.utf8.count, Array(name.utf8))
            + item("TYPE", type: "c", size: 1, count: type.utf8.count, Array(type.utf8))
            + item("SCAL", type: "l", size: 4, count: scale.count, scale.flatMap { field($0, 4) })
            + item(key, type: "?", size: size, count: samples.count, samples.flatMap { $0 })
        return item("STRM", type: 0, size: 4, count: contents.count / 4, contents)
    }

    /// An item: key, type, sample size, count (big-endian), the data padded to four bytes.
    static func item(_ key: String, type: Character, size: Int, count: Int, _ data: [UInt8]) -> [UInt8] {
        item(key, type: type.asciiValue ?? 0, size: size, count: count, data)
    }

    static func item(_ key: String, type: UInt8, size: Int, count: Int, _ data: [UInt8]) -> [UInt8] {
        Array(key.utf8) + [type, UInt8(size), UInt8(count >> 8), UInt8(count & 0xFF)] + data
            + [UInt8](repeating: 0, count: (4 - data.count % 4) % 4)
    }

    /// `value` big-endian in `bytes` bytes (two's complement).
    static func field(_ value: Int64, _ bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A 32-bit float, big-endian.
    static func float(_ value: Float) -> [UInt8] { field(Int64(value.bitPattern), 4) }
}
