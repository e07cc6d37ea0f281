import Foundation

/// A copy of the GoPro MAX sample clip whose telemetry track is made a CAMM track (Google's Camera
/// Motion Metadata): each packet written over with type 6 GPS records (positions and times the
/// test chooses, laid out as Google's specification says, by a writer of this file's own) and the
/// track's sample entry renamed `camm`. No CAMM video is available under a licence the project may
/// use (see `samples/action-cam/SOURCES.md`); ffmpeg cannot write one. ExifTool reads the result
/// as a CAMM track, which makes it an independent reading to test arcapture's against.
public struct CAMMTelemetryVideo {
    /// One GPS record.
    public struct Fix {
        /// Seconds since the GPS epoch (1980-01-06), on GPS time, as the specification says.
        public var gpsTime: Double
        /// Degrees north.
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double
        /// Metres above the WGS84 ellipsoid.
        public var altitude: Float
        /// Metres per second east.
        public var east: Float
        /// Metres per second north.
        public var north: Float
    }

    /// The written file.
    public var path: URL
    /// Each packet's presentation time (by ffprobe) and its fixes.
    public var packets: [(time: Double, fixes: [Fix])] = []

    /// The container's creation time (the clip's own, which ffmpeg does not copy by itself): a
    /// reader that must decide which epoch the records count from can tell by it.
    public static let creationTime = "2019-11-18T15:45:32Z"
    /// Fixes a packet.
    public static let fixesPerPacket = 5
    /// The first fix's GPS time: 2019-11-18T23:45:15Z is 1,258,155,933 s after the GPS epoch on GPS
    /// time (18 leap seconds ahead of UTC).
    public static let firstGPSTime = 1_258_155_933.0

    /// Writes `camm.mp4` in `directory` from `clip` (the video and telemetry tracks, copied by
    /// ffmpeg, then the telemetry rewritten).
    public init(from clip: String, in directory: URL) async throws {
        path = directory.appendingPathComponent("camm.mp4")
        let copy = directory.appendingPathComponent("copy.mp4").path
        let stream = try await GPMFReference.telemetryStream(of: clip)
        let copied = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-i", clip, "-map", "0:v", "-map", "0:\(stream)", "-c", "copy", "-metadata",
                "creation_time=\(Self.creationTime)", copy,
            ],
            install: "apt-get install ffmpeg")
        guard copied.status == 0 else { throw FixtureToolFailed("ffmpeg: \(copied.stderr)") }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: copy)))
        let listed = try await GPMFReference.telemetryPackets(of: copy)
        for (index, packet) in listed.enumerated() {
            let fixes = (0..<Self.fixesPerPacket).map { number -> Fix in
                let step = Double(index * Self.fixesPerPacket + number)
                return Fix(
                    gpsTime: Self.firstGPSTime + packet.time + Double(number) * 0.2,
                    latitude: 33.12677 - step * 0.000_01, longitude: -117.3273436 + step * 0.000_005,
                    altitude: -23 + Float(step) * 0.01, east: 0.8, north: -1.8)
            }
            packets.append((packet.time, fixes))
            var payload = fixes.flatMap(Self.record)
            guard payload.count <= packet.size else {
                throw FixtureToolFailed("\(payload.count) bytes > \(packet.size)")
            }
            // The rest of the packet: whole records of nothing (exposure times, type 1, of 12 bytes, until
            // what is left is a multiple of 16, then zero angle axes, type 0), as a reader walks
            // record by record to the sample's end.
            while (packet.size - payload.count) % 16 != 0 {
                payload += Self.little(UInt16(0)) + Self.little(UInt16(1)) + [UInt8](repeating: 0, count: 8)
            }
            payload += [UInt8](repeating: 0, count: packet.size - payload.count)
            bytes.replaceSubrange(packet.position..<packet.position + packet.size, with: payload)
        }
        // The sample entry: `gpmd` inside the `stsd` box becomes `camm`.
        try DJIMetadataVideo.rename(&bytes, from: "gpmd", to: "camm", after: "stsd", within: 64)
        try Data(bytes).write(to: path)
    }

    /// A type 6 record: its header (reserved, type) and payload, little-endian.
    static func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }

    /// A type 6 record.
    static func record(_ fix: Fix) -> [UInt8] {
        var bytes = little(UInt16(0)) + little(UInt16(6))
        bytes += little(fix.gpsTime.bitPattern) + little(Int32(3))
        bytes += little(fix.latitude.bitPattern) + little(fix.longitude.bitPattern)
        bytes += little(fix.altitude.bitPattern) + little(Float(4).bitPattern) + little(Float(6).bitPattern)
        bytes += little(fix.east.bitPattern) + little(fix.north.bitPattern) + little(Float(0).bitPattern)
        bytes += little(Float(0.5).bitPattern)
        return bytes
    }
}
