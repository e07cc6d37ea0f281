import Foundation

/// A copy of the GoPro MAX sample clip whose telemetry track is made a DJI metadata track
/// (`djmd`, as the Osmo Action 4/5, the Avata 2 and the Osmo 360 write): each packet written over
/// with one protobuf message of a DJI product schema, written by Google's protobuf for Python from
/// the schemas arcapture vendors (`Tests/TestSupport/Fixtures/write-dji-metadata.py`), and the
/// track's sample entry renamed `djmd` and its handler `DJI meta` (or, for an XTRA camera's,
/// `xtmd` and `CAM meta`).
///
/// No DJI clip with this track is available under a licence the project may use (see
/// `samples/action-cam/SOURCES.md`), and ffmpeg cannot write one: the clip is synthetic, laid out as
/// the schemas say, one message a second (a real clip has one a frame).
public struct DJIMetadataVideo {
    /// One message's content: a clip header (the first message's), and the frame's GPS, as the
    /// writer script takes them (its documentation lists the keys).
    public typealias Frame = [String: Any]

    /// The written file.
    public var path: URL
    /// Each packet's presentation time, by ffprobe, in order.
    public var times: [Double] = []

    /// The packets' presentation times of the telemetry track of `clip`, the frames are written
    /// at (the test chooses each frame's content from them).
    public static func packetTimes(of clip: String) async throws -> [Double] {
        try await GPMFReference.telemetryPackets(of: clip).map(\.time)
    }

    /// Writes `name` in `directory` from `clip` with one message of `product`'s schema (`ac203`,
    /// `wa530`, `oq101`, `ae2503`, `ae2504`) a telemetry packet: `frames[i]` in packet `i` (the
    /// clip's packets beyond `frames` hold an empty message). With `damagedAfterFirst`, every
    /// packet after the first is overwritten with 0xFF bytes instead (no protobuf message: a track
    /// damaged on the card). XTRA's products (`ae…`) get an `xtmd` track, as their cameras write.
    public init(
        from clip: String, product: String, frames: [Frame], name: String, in directory: URL,
        damagedAfterFirst: Bool = false
    ) async throws {
        path = directory.appendingPathComponent(name)
        let copy = directory.appendingPathComponent("copy-\(name)").path
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let stream = try await GPMFReference.telemetryStream(of: clip)
        let copied = try await ProcessRunner.run(
            tool: "ffmpeg", ["-v", "error", "-i", clip, "-map", "0:v", "-map", "0:\(stream)", "-c", "copy", copy],
            install: "apt-get install ffmpeg")
        guard copied.status == 0 else { throw FixtureToolFailed("ffmpeg: \(copied.stderr)") }
        let messages = try Self.messages(product: product, frames: frames)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: copy)))
        let packets = try await GPMFReference.telemetryPackets(of: copy)
        for (index, packet) in packets.enumerated() {
            times.append(packet.time)
            let message = index < messages.count ? messages[index] : []
            let payload =
                damagedAfterFirst && index > 0
                ? [UInt8](repeating: 0xFF, count: packet.size) : try Self.padded(message, to: packet.size)
            bytes.replaceSubrange(packet.position..<packet.position + packet.size, with: payload)
        }
        let isXTRA = product.hasPrefix("ae")
        try Self.rename(&bytes, from: "gpmd", to: isXTRA ? "xtmd" : "djmd", after: "stsd", within: 64)
        try Self.rename(&bytes, from: "GoPro MET", to: isXTRA ? "CAM meta\0" : "DJI meta\0", after: "hdlr", within: 64)
        try Data(bytes).write(to: path)
    }

    /// The writer script's messages for `frames`, one a frame, as `product`'s schema lays them out.
    public static func messages(product: String, frames: [Frame]) throws -> [[UInt8]] {
        let script = PackagePaths.root.appendingPathComponent("Tests/TestSupport/Fixtures/write-dji-metadata.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, product]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: frames))
        try input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureToolFailed(
                "write-dji-metadata.py (apt-get install python3-protobuf protobuf-compiler): "
                    + String(decoding: said, as: UTF8.self))
        }
        return String(decoding: printed, as: UTF8.self).split(separator: "\n").map { line in
            var bytes: [UInt8] = []
            var index = line.startIndex
            while let next = line.index(index, offsetBy: 2, limitedBy: line.endIndex), index < line.endIndex {
                bytes.append(UInt8(line[index..<next], radix: 16) ?? 0)
                index = next
            }
            return bytes
        }
    }

    /// `message` followed by an unknown length-delimited field (number 1000) of filler, `size`
    /// bytes in all: a packet's place in the file is kept, and a reader must skip fields it does
    /// not know, as it must in real files.
    static func padded(_ message: [UInt8], to size: Int) throws -> [UInt8] {
        func varint(_ value: Int) -> [UInt8] {
            var value = value
            var bytes: [UInt8] = []
            repeat {
                bytes.append(UInt8(value & 0x7F) | (value >= 0x80 ? 0x80 : 0))
                value >>= 7
            } while value > 0
            return bytes
        }
        let tag = varint(1000 << 3 | 2)
        for lengthBytes in 1...3 {
            let length = size - message.count - tag.count - lengthBytes
            if length >= 0, varint(length).count == lengthBytes {
                return message + tag + varint(length) + [UInt8](repeating: 0x20, count: length)
            }
        }
        throw FixtureToolFailed("a \(message.count)-byte message does not fit a \(size)-byte packet")
    }

    /// Writes `new` over the first `old` within `within` bytes after each `box` name.
    static func rename(_ bytes: inout [UInt8], from old: String, to new: String, after box: String, within: Int)
        throws
    {
        let boxName = Array(box.utf8)
        let oldBytes = Array(old.utf8)
        let newBytes = Array(new.utf8)
        var renamed = false
        var index = 0
        while index + 4 <= bytes.count {
            if Array(bytes[index..<index + 4]) == boxName {
                let end = min(bytes.count - oldBytes.count, index + within)
                if let at = (index..<max(index, end)).first(where: {
                    Array(bytes[$0..<$0 + oldBytes.count]) == oldBytes
                }) {
                    bytes.replaceSubrange(at..<at + oldBytes.count, with: newBytes)
                    renamed = true
                }
            }
            index += 1
        }
        guard renamed else { throw FixtureToolFailed("no \(old) after a \(box) box") }
    }
}
