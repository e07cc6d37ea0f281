import Foundation
import Positioning

/// Reading long telemetry against issue 40's limit of one second: an hour of DJI subtitles (a
/// 108,000-cue `.SRT`, 30 cues a second in the multi-line layout of the Mavic 3 Enterprise and
/// Matrice 300 RTK, `samples/dji-srt/ruz76/DJI.SRT`), an hour of a DJI `djmd` track (108,000
/// protobuf messages, an Avata 2's), and a 10-hour FIT activity (36,000 records a second apart, as
/// a Garmin Edge writes them), each with values that move so that every cue or record differs.
enum TelemetryBench {
    /// The file: each cue as the real sample writes it, the time, clock and values advanced.
    static func subtitles(cues: Int) -> Data {
        var text = ""
        text.reserveCapacity(cues * 520)
        for index in 0..<cues {
            let milliseconds = index * 1000 / 30
            let next = (index + 1) * 1000 / 30
            func timing(_ value: Int) -> String {
                String(
                    format: "%02d:%02d:%02d,%03d", value / 3_600_000, value / 60_000 % 60, value / 1000 % 60,
                    value % 1000)
            }
            let clock = 7 + milliseconds / 1000
            text += """
                \(index + 1)
                \(timing(milliseconds)) --> \(timing(next))
                <font size="28">FrameCnt: \(index + 1), DiffTime: 33ms
                2024-04-23 \(String(format: "%02d:%02d:%02d.%03d", 14 + clock / 3600, clock / 60 % 60, clock % 60, milliseconds % 1000))
                [iso: 110] [shutter: 1/200.0] [fnum: 2.8] [ev: 0] [focal_len: 24.00] [dzoom: 1.00] 
                [latitude: \(String(format: "%.6f", 49.379442 + Double(index) * 1e-6))] [longitude: \(String(format: "%.6f", 15.032166 + Double(index) * 1e-6))] [rel_alt: 43.225 abs_alt: 758.949] 
                [drone_speedx: 0.0 drone_speedy: 0.0 drone_speedz: 0.0] 
                [drone_yaw: -0.7 drone_pitch: -1.2 drone_roll: 2.7] 
                [gb_yaw: \(String(format: "%.1f", Double(index % 3600) / 10 - 180)) gb_pitch: -86.7 gb_roll: 0.0] 

                0
                [ae_meter_md : 0] [dzoom_ratio: 10000, delta:0] [color_md : default] [ct : 5256] 
                </font>


                """
        }
        return Data(text.utf8)
    }

    /// A FIT file of `records` `record` messages a second apart: timestamp, position, enhanced
    /// altitude and speed, heart rate, in the layout the FIT protocol gives (header, one
    /// definition, data messages, the CRC).
    static func activity(records: Int) -> Data {
        var data: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data += $0 } }
        // The definition of local message 0 as `record` (20), little-endian.
        data += [0x40, 0, 0, 20, 0, 6]
        data += [253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 78, 4, 0x86, 73, 4, 0x86, 3, 1, 0x02]
        for index in 0..<records {
            data.append(0x00)
            append(UInt32(1_000_000_000 + index))
            append(Int32(521_055_033 + index * 20))
            append(Int32(-947_388_729 + index * 15))
            append(UInt32((500 + 100 + index % 50) * 5))
            append(UInt32(5000 + index % 2000))
            data.append(UInt8(100 + index % 80))
        }
        var header: [UInt8] = [14, 0x20, 0x08, 0x08]
        withUnsafeBytes(of: UInt32(data.count).littleEndian) { header += $0 }
        header += Array(".FIT".utf8) + [0, 0]
        var file = header + data
        let crc = fitCRC(file)
        file += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        return Data(file)
    }

    /// The FIT protocol's CRC (the bench writes its own file; the reader checks it).
    static func fitCRC(_ bytes: [UInt8]) -> UInt16 {
        let table: [UInt16] = [
            0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
            0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
        ]
        var crc: UInt16 = 0
        for byte in bytes {
            for nibble in [byte & 0xF, byte >> 4] {
                let step = table[Int(crc & 0xF)]
                crc = ((crc >> 4) & 0x0FFF) ^ step ^ table[Int(nibble)]
            }
        }
        return crc
    }

    /// An hour of an Avata 2's `djmd` track: `frames` messages of its schema, 30 a second, each with
    /// the drone's GPS (its time stamp, a position that moves), attitude and velocity, the first
    /// with the clip header; written by the bench with protobuf's wire format (tag, varint or
    /// length, payload), as the schema numbers the fields.
    static func djiMetadata(frames: Int) -> [[UInt8]] {
        func varint(_ value: UInt64) -> [UInt8] {
            var value = value
            var bytes: [UInt8] = []
            repeat {
                bytes.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
                value >>= 7
            } while value > 0
            return bytes
        }
        func field(_ number: UInt64, _ payload: [UInt8]) -> [UInt8] {
            varint(number << 3 | 2) + varint(UInt64(payload.count)) + payload
        }
        func integer(_ number: UInt64, _ value: Int64) -> [UInt8] {
            varint(number << 3) + varint(UInt64(bitPattern: value))
        }
        func double(_ number: UInt64, _ value: Double) -> [UInt8] {
            varint(number << 3 | 1) + withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
        }
        func float(_ number: UInt64, _ value: Float) -> [UInt8] {
            varint(number << 3 | 5) + withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
        }
        let header = field(1, field(1, field(1, Array("dvtm_wa530.proto".utf8)) + field(10, Array("DJI Avata 2".utf8))))
        return (0..<frames).map { index in
            let second = index / 30
            let gps =
                field(1, integer(1, 1) + double(2, 49.379442 + Double(index / 3) * 1e-6) + double(3, 15.032166))
                + integer(2, 758_949) + integer(4, 1) + integer(5, 1)
                + field(
                    6,
                    field(
                        1,
                        Array(
                            String(
                                format: "2024-04-23 %02d:%02d:%02d", 14 + second / 3600, second / 60 % 60, second % 60
                            ).utf8)))
            let drone =
                field(2, float(1, 3) + float(2, 4) + float(3, 0))
                + field(3, integer(1, -100) + integer(2, 5) + integer(3, Int64(index % 3600) - 1800)) + field(4, gps)
            let frame = field(1, integer(1, Int64(index)) + integer(2, Int64(index) * 33_367)) + field(4, drone)
            return (index == 0 ? header : []) + field(3, frame)
        }
    }

    /// Reads each three times and prints the medians against the limit.
    static func report() throws {
        let data = subtitles(cues: 108_000)
        var fixes = 0
        let seconds = try median(repetitions: 3, warmUp: 1) {
            fixes = try DJISubtitleTrack(data: data, file: "hour.SRT").track.fixes.count
        }
        print(
            String(
                format: "  DJI .SRT, an hour at 30 cues/s (108,000 cues, %.1f MB): %.3f s for %d fixes; "
                    + "ratio to the 1 s limit %.2f (target at most 1)",
                Double(data.count) / 1e6, seconds, fixes, seconds))
        let messages = djiMetadata(frames: 108_000)
        var djmdFixes = 0
        let djmdSeconds = try median(repetitions: 3, warmUp: 1) {
            var builder = DJIMetadataTrackBuilder(path: "hour.MP4")
            for (index, message) in messages.enumerated() { builder.add(time: Double(index) / 30, bytes: message) }
            djmdFixes = try builder.finish().track.fixes.count
        }
        print(
            String(
                format: "  DJI djmd track, an hour at 30 frames/s (108,000 messages, %.1f MB): %.3f s for %d fixes; "
                    + "ratio to the 1 s limit %.2f (target at most 1)",
                Double(messages.reduce(0) { $0 + $1.count }) / 1e6, djmdSeconds, djmdFixes, djmdSeconds))
        let fit = activity(records: 36_000)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("arcapture-bench-\(getpid()).fit").path
        guard FileManager.default.createFile(atPath: path, contents: fit) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        var records = 0
        let fitSeconds = try median(repetitions: 3, warmUp: 1) { records = try FITActivity.load(path).fixes.count }
        print(
            String(
                format: "  FIT, 10 hours at 1 record/s (36,000 records, %.1f MB): %.3f s for %d fixes; "
                    + "ratio to the 1 s limit %.2f (target at most 1)",
                Double(fit.count) / 1e6, fitSeconds, records, fitSeconds))
    }
}
