import Foundation
import TestSupport
import Testing

/// A photo's heading is its EXIF image direction or the one given, never north by default; a
/// magnetic one is made true with the World Magnetic Model's declination at the photo's place and
/// time, or said to be drawn as if true when none can be had (issue 39, item 3). Copies without a
/// direction or a time are made by exiftool, an independent tool.
@Suite("arcapture annotate: where a photo looks")
struct PhotoHeadingTests {
    /// The Helsinki photo without GPSImgDirection and its Ref, at `path`.
    private func withoutDirection(at path: String) async throws {
        try FileManager.default.copyItem(atPath: AnnotateCommandTests.photo, toPath: path)
        let result = try await ProcessRunner.run(
            tool: "exiftool", ["-q", "-q", "-overwrite_original", "-GPSImgDirection=", "-GPSImgDirectionRef=", path],
            install: "apt-get install libimage-exiftool-perl")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("one photo: no image direction is refused (64) with the fix, not drawn facing north; a magnetic one is said")
    func onePhoto() async throws {
        let directory = try PackagePaths.temporaryDirectory("heading")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = directory.appendingPathComponent("no-direction.jpg").path
        try await withoutDirection(at: photo)
        let output = directory.appendingPathComponent("out.jpg").path
        let arguments = ["annotate", photo, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--output", output]
        let refused = try await Binary.run(arguments)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("\(photo) has no image direction in its EXIF (GPSImgDirection)"))
        #expect(refused.stderr.contains("give --orientation HEADING"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let given = try await Binary.run(arguments + ["--orientation", "56"])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stderr.contains("orientation 56 (--orientation)"))

        // The Nokia photo's direction is magnetic (GPSImgDirectionRef M): made true with the
        // declination at its place and time, 2022-08-14T11:12:31Z (WMM2020; pygeomag 1.1.0, an
        // independent implementation, gives 9.87194°).
        let magnetic = try await Binary.run([
            "annotate", AnnotateCommandTests.photo, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--output",
            directory.appendingPathComponent("magnetic.jpg").path,
        ])
        #expect(magnetic.status == 0, "\(magnetic.stderr)")
        #expect(
            magnetic.stderr.contains(
                "heading 65.9° (its image direction, 56.0° from magnetic north, with the declination 9.9° E (WMM2020) "
                    + "there)"), "\(magnetic.stderr)")
        #expect(!magnetic.stderr.contains("warning"), "\(magnetic.stderr)")

        // No model for the time given, or no time at all: drawn as if true, with the warning why.
        let old = try await Binary.run([
            "annotate", AnnotateCommandTests.photo, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--output",
            directory.appendingPathComponent("old.jpg").path, "--time", "2008-06-01T12:00:00Z",
        ])
        #expect(old.status == 0, "\(old.stderr)")
        #expect(
            old.stderr.contains(
                "image direction, 56.0°, is from magnetic north (GPSImgDirectionRef M) and is drawn as if from true "
                    + "north, as no World Magnetic Model covers 2008-06-01 (the built-in ones span 2010 to 2030)"),
            "\(old.stderr)")
        let undated = directory.appendingPathComponent("undated.jpg").path
        try FileManager.default.copyItem(atPath: AnnotateCommandTests.photo, toPath: undated)
        let stripped = try await ProcessRunner.run(
            tool: "exiftool",
            [
                "-q", "-q", "-overwrite_original", "-AllDates=", "-OffsetTime*=", "-GPSDateStamp=", "-GPSTimeStamp=",
                undated,
            ],
            install: "apt-get install libimage-exiftool-perl")
        #expect(stripped.status == 0, "\(stripped.stderr)")
        let noTime = try await Binary.run([
            "annotate", undated, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--output",
            directory.appendingPathComponent("undated-out.jpg").path,
        ])
        #expect(noTime.status == 0, "\(noTime.stderr)")
        #expect(
            noTime.stderr.contains("drawn as if from true north, as the photo's time, which picks the model's year, "),
            "\(noTime.stderr)")
    }

    @Test("a folder: a photo without a direction passes through with a warning naming it, or takes --orientation")
    func folder() async throws {
        let directory = try PackagePaths.temporaryDirectory("heading")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await withoutDirection(at: folder.appendingPathComponent("a.jpg").path)
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("photos/lund_01.jpg"), toPath: folder.appendingPathComponent("b.jpg").path)
        let arguments = [
            "annotate", folder.path, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--sidecar",
            directory.appendingPathComponent("frames.jsonl").path, "--output",
            directory.appendingPathComponent("out/%n.jpg").path,
        ]
        let passed = try await Binary.run(arguments)
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(
            passed.stderr.contains(
                "frame 0 (a.jpg): no image direction in its EXIF (GPSImgDirection), so where it looks is unknown: "
                    + "passed through unannotated"))
        #expect(passed.stderr.contains("(1 annotated, 1 without a pose passed through)"))
        let given = try await Binary.run(arguments + ["--orientation", "56", "--force"])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stderr.contains("(2 annotated, 0 without a pose passed through)"))
        #expect(!given.stderr.contains("no image direction"))

        // In a folder, a magnetic direction is made true as for one photo, and the frame's pose
        // in the sidecar says so: 56° + 9.87194° (pygeomag at 2022-08-14T11:12:31Z).
        try FileManager.default.copyItem(
            atPath: AnnotateCommandTests.photo, toPath: folder.appendingPathComponent("c.jpg").path)
        let corrected = try await Binary.run(arguments + ["--force"])
        #expect(corrected.status == 0, "\(corrected.stderr)")
        #expect(!corrected.stderr.contains("magnetic"), "\(corrected.stderr)")
        let records = try String(contentsOf: directory.appendingPathComponent("frames.jsonl"), encoding: .utf8)
            .split(separator: "\n").compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        let nokia = try #require(records.first { $0["file"] as? String == "c.jpg" })
        let heading = try #require((nokia["pose"] as? [String: Any])?["heading_deg"] as? Double)
        #expect(abs(heading - 65.87194) < 0.0001, "\(heading)")
    }
    @Test("a DJI photo: its gimbal's yaw, pitch and roll from its XMP are the camera's, one photo or a folder")
    func djiGimbal() async throws {
        let directory = try PackagePaths.temporaryDirectory("heading")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = folder.appendingPathComponent("DJI_0001.JPG").path
        // The Lund photo (true image direction 179.2°) with a DJI gimbal's attitude, written as
        // DJI writes it (attributes) by exiftool.
        try FileManager.default.copyItem(atPath: PackagePaths.sample("photos/lund_01.jpg"), toPath: photo)
        let written = try await ProcessRunner.run(
            tool: "exiftool",
            [
                "-q", "-q", "-overwrite_original", "-api", "XMPShorthand=1", "-XMP-drone-dji:GimbalYawDegree=-35.20",
                "-XMP-drone-dji:GimbalPitchDegree=-30.50", "-XMP-drone-dji:GimbalRollDegree=+0.40",
                "-XMP-drone-dji:FlightYawDegree=-33.00", photo,
            ], install: "apt-get install libimage-exiftool-perl")
        #expect(written.status == 0, "\(written.stderr)")
        let one = try await Binary.run([
            "annotate", photo, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--output",
            directory.appendingPathComponent("one.jpg").path,
        ])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(
            one.stderr.contains("heading 324.8°, pitch -30.5°, roll 0.4° (its DJI gimbal's, from its XMP)"),
            "\(one.stderr)")
        let many = try await Binary.run([
            "annotate", folder.path, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--sidecar",
            directory.appendingPathComponent("frames.jsonl").path, "--output",
            directory.appendingPathComponent("out/%n.jpg").path,
        ])
        #expect(many.status == 0, "\(many.stderr)")
        let record = try #require(
            try StillFootage.firstRecord(ofSidecar: directory.appendingPathComponent("frames.jsonl").path))
        let pose = try #require(record["pose"] as? [String: Any])
        #expect(abs((pose["heading_deg"] as? Double ?? 0) - 324.8) < 1e-9)
        #expect(abs((pose["pitch_deg"] as? Double ?? 0) + 30.5) < 1e-9)
        #expect(abs((pose["roll_deg"] as? Double ?? 0) - 0.4) < 1e-9)
    }
}
