import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage
@testable import Positioning

/// The GPS inside a real GoPro MAX clip (samples/video/max-heromode.mp4, gopro/gpmf-parser's
/// sample, Apache-2.0 or MIT), checked against ``GPMFReference``: ffprobe's packets and timing and
/// a walk over the items written in the tests, never CaptureKit's own reader.
@Suite("GPS embedded in a video (GoPro GPMF)")
struct EmbeddedTelemetryTests {
    static let clip = PackagePaths.sample("video/max-heromode.mp4")

    /// A copy of the clip, `damaged.mp4` in `directory`, with the first item of `key`, `type` and
    /// sample `size` changed by `change` (given the item's 8 header bytes).
    static func copy(
        in directory: URL, changing key: String, type: Character, size: UInt8, _ change: (inout [UInt8]) -> Void
    ) throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        let header = Array(key.utf8) + [type.asciiValue ?? 0, size]
        let at = try #require(bytes.indices.dropLast(8).first { Array(bytes[$0..<$0 + 6]) == header })
        var item = Array(bytes[at..<at + 8])
        change(&item)
        bytes.replaceSubrange(at..<at + 8, with: item)
        let damaged = directory.appendingPathComponent("damaged.mp4")
        try Data(bytes).write(to: damaged)
        return damaged
    }

    @Test("every GPS5 sample becomes a fix: count, first and last position, altitude above the ellipsoid")
    func fixes() async throws {
        let reference = try await GPMFReference(video: Self.clip)
        let samples = reference.packets.flatMap(\.samples)
        #expect(reference.packets.count == 11)
        #expect(reference.packets.allSatisfy { $0.fix == 3 }, "a 3D fix throughout, so every sample is a fix")
        let track = try TrackFile.load(Self.clip)
        #expect(track.fixes.count == samples.count, "\(track.summary)")
        let first = try #require(track.fixes.first)
        let last = try #require(track.fixes.last)
        #expect(abs(first.coordinate.latitude - samples[0][0]) < 1e-9)
        #expect(abs(first.coordinate.longitude - samples[0][1]) < 1e-9)
        #expect(abs(last.coordinate.latitude - samples[samples.count - 1][0]) < 1e-9)
        #expect(abs(last.coordinate.longitude - samples[samples.count - 1][1]) < 1e-9)
        #expect(first.coordinate.altitude == samples[0][2], "GPS5's altitude, above the ellipsoid")
        #expect(first.altitudeMeanSeaLevel == nil)
        #expect(abs((first.speed ?? -1) - samples[0][3]) < 1e-9)
        #expect(first.mode == .threeD)
        #expect(track.warnings.isEmpty, "\(track.warnings)")
    }

    @Test("times follow the video's packet timing, on the GPS clock; the stale first GPSU does not move them")
    func times() async throws {
        let reference = try await GPMFReference(video: Self.clip)
        let track = try TrackFile.load(Self.clip)
        let last = try #require(reference.packets.last)
        // The samples of a packet are spread over its duration: the last one (n-1)/n of the way.
        let span = last.time + last.duration * Double(last.samples.count - 1) / Double(last.samples.count)
        let first = try #require(track.fixes.first?.time)
        let final = try #require(track.fixes.last?.time)
        #expect(abs(final.timeIntervalSince(first) - span) < 0.001, "the fixes span the packets' \(span) s")
        // Each payload's first fix is at its GPSU, within 0.1 s, but for the first payload, whose
        // GPSU is stale (seconds behind the next one's).
        var index = 0
        for (number, packet) in reference.packets.enumerated() {
            let gps = try #require(packet.gpsu.flatMap(GPMFReference.seconds(gpsu:)))
            let fix = track.fixes[index].time.timeIntervalSince1970
            if number == 0 {
                #expect(abs(fix - gps) > 1, "the first GPSU is stale: \(fix - gps) s")
            } else {
                #expect(abs(fix - gps) < 0.1, "payload \(number): fix \(fix - gps) s from its GPSU")
            }
            index += packet.samples.count
        }
        let calendar = Calendar(identifier: .gregorian)
        let utc = try #require(TimeZone(identifier: "UTC"))
        #expect(calendar.dateComponents(in: utc, from: first).hour == 23, "the GPS clock, not creation_time's 15:45")
    }

    @Test("a damaged payload is skipped, counted and named by its time in the video; the others are read")
    func damagedPayload() async throws {
        let directory = try PackagePaths.temporaryDirectory("gpmf")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The first GPS5 item in the file (the first payload's): its count made far too large.
        let damaged = try Self.copy(in: directory, changing: "GPS5", type: "l", size: 20) { $0[6] = 0x7F }
        let reference = try await GPMFReference(video: Self.clip)
        let track = try TrackFile.load(damaged.path)
        #expect(track.fixes.count == reference.packets.dropFirst().flatMap(\.samples).count)
        #expect(track.warnings.count == 1)
        #expect(track.warnings.first?.hasPrefix("\(damaged.path): telemetry at 0.00 s: byte ") == true)
        #expect(track.warnings.first?.contains("GPS5 says 32529 samples of 20 bytes, but") == true, "\(track.warnings)")
        #expect(track.summary.contains("1 damaged payloads skipped"), "\(track.summary)")
    }

    @Test("the camera's gravity vector, in the picture's frame, gives its pitch and roll at each GRAV sample's time")
    func attitudes() async throws {
        let reference = try await GPMFReference(video: Self.clip).attitudes
        #expect(reference.count == 316)
        let track = try TrackFile.load(Self.clip)
        #expect(track.attitudes.count == reference.count, "\(track.summary)")
        #expect(
            track.summary.contains(
                "the camera's pitch and roll from 316 gravity samples (GRAV, in the picture's frame by IORI)"))
        let first = try #require(track.fixes.first?.time)
        let start =
            await first.timeIntervalSince1970 - (try #require(GPMFReference(video: Self.clip).packets.first?.time))
        for (attitude, expected) in zip(track.attitudes, reference) {
            #expect(abs(attitude.time.timeIntervalSince1970 - start - expected.time) < 1e-3)
            #expect(abs(attitude.pitch - expected.pitch) < 1e-6)
            #expect(abs(attitude.roll - expected.roll) < 1e-6)
        }
    }

    @Test("a damaged gravity item costs its payload's attitude alone, with a warning naming its time")
    func damagedAttitude() async throws {
        let directory = try PackagePaths.temporaryDirectory("gpmf")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The first GRAV item in the file: its values said to be unsigned.
        let damaged = try Self.copy(in: directory, changing: "GRAV", type: "s", size: 6) { $0[4] = UInt8(ascii: "S") }
        let reference = try await GPMFReference(video: Self.clip)
        let track = try TrackFile.load(damaged.path)
        #expect(track.fixes.count == reference.packets.flatMap(\.samples).count, "the GPS is all there")
        #expect(track.attitudes.count == reference.packets.dropFirst().flatMap(\.gravity).count)
        #expect(track.warnings.count == 1)
        #expect(
            track.warnings.first?.hasPrefix("\(damaged.path): telemetry at 0.00 s: byte ") == true, "\(track.warnings)")
        #expect(
            track.warnings.first?.hasSuffix(
                "GRAV samples are 'S' of 6 bytes, not 's' of 6; its camera attitude skipped") == true,
            "\(track.warnings)")
    }

    @Test("a video without telemetry, a file cut short and a folder are refused, naming the file")
    func refused() async throws {
        let directory = try PackagePaths.temporaryDirectory("gpmf")
        defer { try? FileManager.default.removeItem(at: directory) }
        let videoOnly = directory.appendingPathComponent("video-only.mp4")
        let copy = try await ProcessRunner.run(
            tool: "ffmpeg", ["-v", "error", "-i", Self.clip, "-map", "0:0", "-c", "copy", videoOnly.path],
            install: "apt-get install ffmpeg")
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect {
            try TrackFile.load(videoOnly.path)
        } throws: { error in
            "\(error)".contains(
                "\(videoOnly.path): no GPMF telemetry track (gpmd) among its streams (video h264, data tmcd)")
        }
        let cut = directory.appendingPathComponent("cut.mp4")
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.clip))
        try whole.prefix(whole.count / 2).write(to: cut)
        #expect {
            try TrackFile.load(cut.path)
        } throws: { error in
            "\(error)".hasPrefix("\(cut.path)") && (error as? InputFileError)?.cannotBeOpened == false
        }
    }
}
