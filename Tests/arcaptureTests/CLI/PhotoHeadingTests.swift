import Foundation
import TestSupport
import Testing

/// A photo's heading is its EXIF image direction or the one given, never north by default; a
/// magnetic one is said to be drawn as if true (issue 39, item 3, in part: the declination itself
/// is not applied yet). Copies without a direction are made by exiftool, an independent tool.
@Suite("arcapture annotate: where a photo looks")
struct PhotoHeadingTests {
    /// The Helsinki photo without GPSImgDirection and its Ref, at `path`.
    private func withoutDirection(at path: String) throws {
        try FileManager.default.copyItem(atPath: AnnotateCommandTests.photo, toPath: path)
        let result = try ProcessRunner.run(
            tool: "exiftool", ["-q", "-q", "-overwrite_original", "-GPSImgDirection=", "-GPSImgDirectionRef=", path],
            install: "apt-get install libimage-exiftool-perl")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("one photo: no image direction is refused (64) with the fix, not drawn facing north; a magnetic one is said")
    func onePhoto() throws {
        let directory = try PackagePaths.temporaryDirectory("heading")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = directory.appendingPathComponent("no-direction.jpg").path
        try withoutDirection(at: photo)
        let output = directory.appendingPathComponent("out.jpg").path
        let arguments = ["annotate", photo, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--output", output]
        let refused = try Binary.run(arguments)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("\(photo) has no image direction in its EXIF (GPSImgDirection)"))
        #expect(refused.stderr.contains("give --orientation HEADING"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let given = try Binary.run(arguments + ["--orientation", "56"])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stderr.contains("orientation 56 (--orientation)"))

        // The Nokia photo's direction is magnetic (GPSImgDirectionRef M).
        let magnetic = try Binary.run([
            "annotate", AnnotateCommandTests.photo, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--output",
            directory.appendingPathComponent("magnetic.jpg").path,
        ])
        #expect(magnetic.status == 0, "\(magnetic.stderr)")
        #expect(
            magnetic.stderr.contains(
                "image direction, 56.0°, is from magnetic north (GPSImgDirectionRef M) and is drawn as if from true north"
            ))
    }

    @Test("a folder: a photo without a direction passes through with a warning naming it, or takes --orientation")
    func folder() throws {
        let directory = try PackagePaths.temporaryDirectory("heading")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try withoutDirection(at: folder.appendingPathComponent("a.jpg").path)
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("photos/lund_01.jpg"), toPath: folder.appendingPathComponent("b.jpg").path)
        let arguments = [
            "annotate", folder.path, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--sidecar",
            directory.appendingPathComponent("frames.jsonl").path, "--output",
            directory.appendingPathComponent("out/%n.jpg").path,
        ]
        let passed = try Binary.run(arguments)
        #expect(passed.status == 0, "\(passed.stderr)")
        #expect(
            passed.stderr.contains(
                "frame 0 (a.jpg): no image direction in its EXIF (GPSImgDirection), so where it looks is unknown: "
                    + "passed through unannotated"))
        #expect(passed.stderr.contains("(1 annotated, 1 without a pose passed through)"))
        let given = try Binary.run(arguments + ["--orientation", "56", "--force"])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stderr.contains("(2 annotated, 0 without a pose passed through)"))
        #expect(!given.stderr.contains("no image direction"))
    }
}
