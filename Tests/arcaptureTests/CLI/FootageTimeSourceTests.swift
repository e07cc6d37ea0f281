import Foundation
import TestSupport
import Testing

/// Where a run's time comes from, on real files altered by ffmpeg and exiftool to make each case
/// (issue 39, item 1): footage without a time and a track is refused rather than aligned to the
/// track's first fix; a video's GPS clock, Apple's creationdate with its zone and a bare
/// creation_time are told apart; an EXIF time without an offset is the camera's wall clock, placed
/// by the photo's GPS stamps or read in TZ, never as UTC.
@Suite("arcapture annotate and sync: where the time comes from")
struct FootageTimeSourceTests {
    static let gopro = PackagePaths.sample("video/max-heromode.mp4")

    private func tool(_ name: String, _ arguments: [String], package: String) async throws {
        let result = try await ProcessRunner.run(tool: name, arguments, install: "apt-get install \(package)")
        #expect(result.status == 0, "\(name) \(arguments): \(result.stderr)")
    }

    /// The GoPro clip's first second, stream-copied without its telemetry and its metadata (as an
    /// export or a re-encode leaves it), plus `metadata` (ffmpeg options) when given.
    private func exportedClip(at path: String, metadata: [String] = []) async throws {
        try await tool(
            "ffmpeg",
            ["-v", "error", "-i", Self.gopro, "-map", "0:v", "-t", "1", "-c", "copy", "-map_metadata", "-1"]
                + metadata + ["-y", path], package: "ffmpeg")
    }

    @Test("footage with no time and a track is refused (64) with the fix; the track's first fix only when asked")
    func noTimeRefused() async throws {
        let directory = try PackagePaths.temporaryDirectory("time-source")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("exported.mp4").path
        try await exportedClip(at: clip)
        let output = directory.appendingPathComponent("out.y4m").path
        let arguments = [
            "annotate", clip, "--track", Self.gopro, "--pois",
            PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson"),
            "--hfov", "118", "--output", output,
        ]
        let refused = try await Binary.run(arguments)
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains(
                "\(clip) has no start time in its metadata (a clip re-encoded or exported loses its creation_time)"))
        #expect(refused.stderr.contains("give --start TIME") && refused.stderr.contains("--start first-fix"))
        #expect(!FileManager.default.fileExists(atPath: output))

        let asked = try await Binary.run(arguments + ["--start", "first-fix"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(
            asked.stderr.contains(
                "note: time: the first frame at 2019-11-18T23:45:15.425Z from the track's first fix (--start first-fix)"
            ))
        let given = try await Binary.run(arguments + ["--start", "2019-11-18T23:45:16Z", "--force"])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stderr.contains("note: time: the first frame at 2019-11-18T23:45:16.000Z from --start"))
    }

    @Test("a video's clock: its GPS clock, Apple's creationdate with its zone, or creation_time labelled UTC")
    func videoClocks() async throws {
        let directory = try PackagePaths.temporaryDirectory("time-source")
        defer { try? FileManager.default.removeItem(at: directory) }
        let gopro = try await Binary.run(["sync", "--footage", Self.gopro])
        #expect(gopro.stdout.contains("start from the video's GPS clock (its GPMF telemetry)"), "\(gopro.stdout)")

        // An iPhone's QuickTime key: the camera's local time with its zone (8 hours behind UTC).
        let apple = directory.appendingPathComponent("apple.mov").path
        try await exportedClip(
            at: apple,
            metadata: [
                "-metadata", "com.apple.quicktime.creationdate=2019-11-18T15:45:16-0800", "-metadata",
                "creation_time=2019-11-18T15:45:16Z", "-movflags", "use_metadata_tags",
            ])
        let fromApple = try await Binary.run(["sync", "--footage", apple, "--track", Self.gopro])
        #expect(
            fromApple.stdout.contains("start from the video's com.apple.quicktime.creationdate (with its zone, -0800)"),
            "\(fromApple.stdout)\(fromApple.stderr)")
        #expect(fromApple.stdout.contains("2019-11-18T23:45:16.000Z"))
        #expect(fromApple.status == 0)

        // creation_time alone, as a GoPro writes it: its local time labelled UTC, said as such.
        let container = directory.appendingPathComponent("container.mp4").path
        try await exportedClip(at: container, metadata: ["-metadata", "creation_time=2019-11-18T15:45:16Z"])
        let fromContainer = try await Binary.run(["sync", "--footage", container, "--track", Self.gopro])
        #expect(
            fromContainer.stdout.contains("start from the video's creation_time, labelled UTC (cameras often write"),
            "\(fromContainer.stdout)")
        #expect(fromContainer.status == 1)  // eight hours before the track: no frame has a pose
    }

    /// `annotate`'s time note for `photo` with `TZ` set to `zone`, its output written in `directory`.
    private func timeNote(_ photo: String, zone: String, in directory: String) async throws -> String {
        let result = try await Binary.run(
            [
                "annotate", photo, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--output",
                (directory as NSString).appendingPathComponent(
                    "out-\(zone.replacingOccurrences(of: "/", with: "-")).jpg"),
                "--force",
            ], environment: ["TZ": zone])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stderr.split(separator: "\n").first { $0.hasPrefix("note: time: ") }.map(String.init) ?? ""
    }

    @Test("an EXIF time without an offset: placed by the photo's GPS stamps, else read in TZ, never as UTC")
    func exifZones() async throws {
        let directory = try PackagePaths.temporaryDirectory("time-source")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The Nokia photo: 14:12:31 with OffsetTimeOriginal +03:00, GPS stamps 2022:08:14 11:12:32.
        await #expect(
            try timeNote(AnnotateCommandTests.photo, zone: "Asia/Kolkata", in: directory.path)
                == "note: time: 2022-08-14T11:12:31.000Z from the EXIF time with its offset (OffsetTimeOriginal +03:00)"
        )

        let noOffset = directory.appendingPathComponent("no-offset.jpg").path
        try FileManager.default.copyItem(atPath: AnnotateCommandTests.photo, toPath: noOffset)
        try await tool(
            "exiftool",
            [
                "-q", "-q", "-overwrite_original", "-OffsetTimeOriginal=", "-OffsetTime=", "-OffsetTimeDigitized=",
                noOffset,
            ],
            package: "libimage-exiftool-perl")
        await #expect(
            try timeNote(noOffset, zone: "Asia/Kolkata", in: directory.path)
                == "note: time: 2022-08-14T11:12:31.000Z from the EXIF time, the camera's local time, at UTC+03:00 as "
                + "the photo's GPS time stamp gives")

        // GPS stamps that disagree with the wall clock by more than a few minutes give no zone.
        let stale = directory.appendingPathComponent("stale.jpg").path
        try FileManager.default.copyItem(atPath: noOffset, toPath: stale)
        try await tool(
            "exiftool", ["-q", "-q", "-overwrite_original", "-GPSTimeStamp=11:20:00", stale],
            package: "libimage-exiftool-perl")
        let noStamps = directory.appendingPathComponent("no-stamps.jpg").path
        try FileManager.default.copyItem(atPath: noOffset, toPath: noStamps)
        try await tool(
            "exiftool", ["-q", "-q", "-overwrite_original", "-GPSTimeStamp=", "-GPSDateStamp=", noStamps],
            package: "libimage-exiftool-perl")
        for photo in [stale, noStamps] {
            await #expect(
                try timeNote(photo, zone: "Asia/Kolkata", in: directory.path)
                    == "note: time: 2022-08-14T08:42:31.000Z from the EXIF time, which has no zone: read as local time "
                    + "in this system's time zone (IST, UTC+05:30); set TZ to the zone the camera's clock was set to "
                    + "if it was another")
            await #expect(
                try timeNote(photo, zone: "UTC", in: directory.path).hasPrefix(
                    "note: time: 2022-08-14T14:12:31.000Z from"))
        }
    }
}
