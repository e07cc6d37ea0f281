import Foundation

/// An independent reading of a video's GoPro telemetry, to check arcapture's against: the packets
/// and their timing come from `ffprobe -show_packets -show_data` (FFmpeg's demuxer, its hex dump),
/// and the GPS from a walk over the key-length-value items written here from gopro/gpmf-parser's
/// README, sharing no code with CaptureKit's reader. It reads only what the tests compare: GPS5
/// samples, SCAL, GPSU and GPSF, and the gravity vector (GRAV) and image orientation (IORI).
public struct GPMFReference {
    /// One telemetry packet.
    public struct Packet {
        /// Its presentation time in seconds, by ffprobe.
        public var time: Double
        /// Its duration in seconds, by ffprobe.
        public var duration: Double
        /// The GPS time of its GPSU item (`yymmddhhmmss.sss`).
        public var gpsu: String?
        /// Its GPSF (fix) value.
        public var fix: Int?
        /// Its GPS5 samples, scaled: latitude, longitude, altitude, 2D speed, 3D speed.
        public var samples: [[Double]]
        /// Its GRAV samples, scaled: x, y, z.
        public var gravity: [[Double]] = []
        /// Its IORI samples, scaled: w, x, y, z.
        public var imageOrientation: [[Double]] = []
    }

    /// The telemetry packets in order.
    public var packets: [Packet]

    /// Reads the `gpmd` stream of `video` through ffprobe: first which stream it is, then that
    /// stream's packets alone (a hex dump of every stream's would be megabytes of JSON to parse).
    public init(video: String) async throws {
        let telemetry = try await Self.telemetryStream(of: video)
        let probe = try await ProcessRunner.run(
            tool: "ffprobe",
            ["-v", "error", "-select_streams", "\(telemetry)", "-show_packets", "-show_data", "-of", "json", video],
            install: "apt-get install ffmpeg")
        guard probe.status == 0,
            let packets = (try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])?[
                "packets"] as? [[String: Any]]
        else { throw ReferenceError("ffprobe could not list the packets of \(video): \(probe.stderr)") }
        self.packets = try packets.map { packet in
            guard let time = Double(packet["pts_time"] as? String ?? ""),
                let duration = Double(packet["duration_time"] as? String ?? ""),
                let size = Int(packet["size"] as? String ?? ""), let dump = packet["data"] as? String
            else { throw ReferenceError("a packet without time, duration, size or data: \(packet)") }
            let bytes = try Self.bytes(fromDump: dump)
            guard bytes.count == size else { throw ReferenceError("the dump holds \(bytes.count) of \(size) bytes") }
            var reading = Packet(time: time, duration: duration, samples: [])
            Self.walk(bytes[...], into: &reading, scale: [])
            return reading
        }
    }

    /// The index of `video`'s `gpmd` stream, by ffprobe.
    static func telemetryStream(of video: String) async throws -> Int {
        let streams = try await ProcessRunner.run(
            tool: "ffprobe", ["-v", "error", "-show_entries", "stream=index,codec_tag_string", "-of", "json", video],
            install: "apt-get install ffmpeg")
        guard streams.status == 0,
            let list = (try JSONSerialization.jsonObject(with: Data(streams.stdout.utf8)) as? [String: Any])?[
                "streams"] as? [[String: Any]],
            let telemetry = list.first(where: { $0["codec_tag_string"] as? String == "gpmd" })?["index"] as? Int
        else { throw ReferenceError("ffprobe found no gpmd stream in \(video): \(streams.stderr)") }
        return telemetry
    }

    /// Each packet of `video`'s `gpmd` stream, by ffprobe: its presentation time, size and place
    /// in the file (what a fixture that rewrites the telemetry in place needs).
    static func telemetryPackets(of video: String) async throws -> [(time: Double, size: Int, position: Int)] {
        let stream = try await telemetryStream(of: video)
        let probe = try await ProcessRunner.run(
            tool: "ffprobe",
            [
                "-v", "error", "-select_streams", "\(stream)", "-show_entries", "packet=pts_time,size,pos", "-of",
                "json", video,
            ],
            install: "apt-get install ffmpeg")
        guard probe.status == 0,
            let listed = (try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])?[
                "packets"] as? [[String: Any]]
        else { throw ReferenceError("ffprobe could not list \(video)'s packets: \(probe.stderr)") }
        let packets = try listed.map { packet -> (time: Double, size: Int, position: Int) in
            guard let time = Double(packet["pts_time"] as? String ?? ""),
                let size = Int(packet["size"] as? String ?? ""), let position = Int(packet["pos"] as? String ?? "")
            else { throw ReferenceError("a packet without time, size or place: \(packet)") }
            return (time, size, position)
        }
        guard packets.count > 2 else { throw ReferenceError("\(video) has no telemetry packets") }
        return packets
    }

    /// ffprobe's hex dump (`00000000: 4445 5643 0001 17c4 …  DEVC....`): the eight 4-digit
    /// groups after the offset, then the same bytes as text, which is dropped.
    static func bytes(fromDump dump: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for line in dump.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let part = String(line[line.index(after: colon)...].prefix(41))
            let hex = part.split(separator: " ").map(String.init).filter { $0.count == 4 || $0.count == 2 }
            for group in hex {
                var index = group.startIndex
                while index < group.endIndex {
                    let next = group.index(index, offsetBy: 2)
                    guard let byte = UInt8(group[index..<next], radix: 16) else {
                        throw ReferenceError("not hex: \(group)")
                    }
                    bytes.append(byte)
                    index = next
                }
            }
        }
        return bytes
    }

    /// Walks items: 4 bytes of key, 1 of type, 1 of sample size, 2 of count (big-endian), the data
    /// padded to 4; type 0 holds items. SCAL applies to the GPS5 after it in the same container.
    static func walk(_ bytes: ArraySlice<UInt8>, into packet: inout Packet, scale: [Double]) {
        var scale = scale
        var at = bytes.startIndex
        while at + 8 <= bytes.endIndex {
            let key = String(decoding: bytes[at..<at + 4], as: UTF8.self)
            let type = bytes[at + 4]
            let size = Int(bytes[at + 5])
            let count = Int(bytes[at + 6]) * 256 + Int(bytes[at + 7])
            let data = bytes[(at + 8)..<min(bytes.endIndex, at + 8 + size * count)]
            func int16s() -> [Double] {
                stride(from: data.startIndex, to: data.endIndex - 1, by: 2).map {
                    Double(Int16(bitPattern: UInt16(data[$0]) << 8 | UInt16(data[$0 + 1])))
                }
            }
            func int32s() -> [Double] {
                stride(from: data.startIndex, to: data.endIndex - 3, by: 4).map { index in
                    Double(
                        Int32(
                            bitPattern: UInt32(data[index]) << 24 | UInt32(data[index + 1]) << 16
                                | UInt32(data[index + 2]) << 8 | UInt32(data[index + 3])))
                }
            }
            switch (key, type) {
            case (_, 0): walk(data, into: &packet, scale: [])
            case ("SCAL", UInt8(ascii: "l")): scale = int32s()
            case ("SCAL", UInt8(ascii: "s")): scale = int16s()
            case ("GRAV", UInt8(ascii: "s")), ("IORI", UInt8(ascii: "s")):
                let width = key == "GRAV" ? 3 : 4
                let values = int16s().map { $0 / (scale.first ?? 1) }
                let vectors = stride(from: 0, to: values.count - width + 1, by: width).map {
                    Array(values[$0..<$0 + width])
                }
                if key == "GRAV" { packet.gravity += vectors } else { packet.imageOrientation += vectors }
            case ("GPSU", _): packet.gpsu = String(decoding: data.prefix(16), as: UTF8.self)
            case ("GPSF", _): packet.fix = int32s().first.map { Int($0) }
            case ("GPS5", UInt8(ascii: "l")):
                let values = int32s()
                for start in stride(from: 0, to: values.count - 4, by: 5) {
                    packet.samples.append(
                        (0..<5).map { values[start + $0] / (scale.count == 5 ? scale[$0] : scale.first ?? 1) })
                }
            default: break
            }
            at += 8 + (size * count + 3) / 4 * 4
        }
    }

    /// The camera's pitch and roll at each GRAV sample, on the video's clock (spread over its
    /// packet's duration): gravity turned into the picture's frame by IORI, through a rotation
    /// matrix built here from the quaternion, then pitch = −asin(z) and roll = atan2(x, y) as the
    /// camera frame of geometry.md §3 has them.
    public var attitudes: [(time: Double, pitch: Double, roll: Double)] {
        packets.flatMap { packet in
            packet.gravity.enumerated().map { index, g -> (time: Double, pitch: Double, roll: Double) in
                let q =
                    packet.imageOrientation.count == packet.gravity.count
                    ? packet.imageOrientation[index] : [1, 0, 0, 0]
                let n = (q.reduce(0) { $0 + $1 * $1 }).squareRoot()
                let (w, x, y, z) = (q[0] / n, q[1] / n, q[2] / n, q[3] / n)
                let matrix = [
                    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
                ]
                let turned = matrix.map { row in zip(row, g).reduce(0) { $0 + $1.0 * $1.1 } }
                let length = (turned.reduce(0) { $0 + $1 * $1 }).squareRoot()
                return (
                    packet.time + packet.duration * Double(index) / Double(packet.gravity.count),
                    -asin(turned[2] / length) * 180 / .pi, atan2(turned[0], turned[1]) * 180 / .pi
                )
            }
        }
    }

    /// GPSU as seconds since 1970 (UTC).
    public static func seconds(gpsu: String) -> Double? {
        let digits = Array(gpsu.utf8)
        guard digits.count >= 16 else { return nil }
        let number = { (from: Int, length: Int) in Int(String(decoding: digits[from..<from + length], as: UTF8.self)) }
        guard let year = number(0, 2), let month = number(2, 2), let day = number(4, 2), let hour = number(6, 2),
            let minute = number(8, 2), let second = number(10, 2), let millis = number(13, 3)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let date = calendar.date(
            from: DateComponents(year: 2000 + year, month: month, day: day, hour: hour, minute: minute, second: second))
        return date.map { $0.timeIntervalSince1970 + Double(millis) / 1000 }
    }

    /// A reference reading that could not be made.
    public struct ReferenceError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
        init(_ description: String) { self.description = description }
    }
}
