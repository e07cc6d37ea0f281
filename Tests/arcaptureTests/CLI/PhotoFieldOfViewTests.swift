import Foundation
import TestSupport
import Testing

/// A photo's field of view from its EXIF when --hfov and --camera are not given (issue 39, item 4):
/// from its 35 mm equivalent focal length (the diagonal kept), else its focal length on the sensor
/// its focal plane resolution implies; said in a note. Copies are made by ffmpeg and exiftool.
@Suite("arcapture annotate: a photo's field of view from its EXIF")
struct PhotoFieldOfViewTests {
    private func run(_ tool: String, _ arguments: [String], package: String) async throws -> String {
        try await ProcessRunner.output(tool: tool, arguments, package: package)
    }

    /// The degrees the note gives, or nil.
    private func noted(_ stderr: String) -> Double? {
        stderr.firstMatch(of: /EXIF: ([0-9.]+)° across, from/).flatMap { Double($0.1) }
    }

    @Test("the Lund photo's 35 mm equivalent, 35 mm, on a 4:3 picture: 52.6° across, said")
    func fromEquivalent() async throws {
        let directory = try PackagePaths.temporaryDirectory("fov")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = PackagePaths.sample("photos/lund_01.jpg")
        let result = try await Binary.run([
            "annotate", photo, "--pois", AnnotateCommandTests.pois, "--output",
            directory.appendingPathComponent("out.jpg").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "note: the field of view from \(photo)'s EXIF: 52.6° across, from its 35 mm equivalent focal "
                    + "length, 35 mm (--hfov or --camera overrides it)"), "\(result.stderr)")
        // The diagonal of 36 x 24 mm film, 43.27 mm, across a 4:3 picture is 34.61 mm wide.
        let expected = 2 * atan(43.266615 * 0.8 / 70) * 180 / .pi
        #expect(abs((noted(result.stderr) ?? 0) - expected) < 0.05)
        // Given, --hfov wins and nothing is said.
        let given = try await Binary.run([
            "annotate", photo, "--pois", AnnotateCommandTests.pois, "--hfov", "65", "--output",
            directory.appendingPathComponent("given.jpg").path,
        ])
        #expect(given.status == 0 && !given.stderr.contains("field of view from"), "\(given.stderr)")
    }

    @Test("on a 3:2 picture it is exiftool's FOV")
    func asExiftool() async throws {
        let directory = try PackagePaths.temporaryDirectory("fov")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cropped = directory.appendingPathComponent("3x2.jpg").path
        _ = try await run(
            "ffmpeg",
            ["-v", "error", "-i", PackagePaths.sample("photos/lund_01.jpg"), "-vf", "crop=1020:680", "-y", cropped],
            package: "ffmpeg")
        _ = try await run(
            "exiftool",
            ["-q", "-q", "-overwrite_original", "-TagsFromFile", PackagePaths.sample("photos/lund_01.jpg"), cropped],
            package: "libimage-exiftool-perl")
        let exiftool = try await run("exiftool", ["-n", "-s3", "-FOV", cropped], package: "libimage-exiftool-perl")
        let theirs = try #require(Double(exiftool.trimmingCharacters(in: .whitespacesAndNewlines)))
        let result = try await Binary.run([
            "annotate", cropped, "--pois", AnnotateCommandTests.pois, "--output",
            directory.appendingPathComponent("out.jpg").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // The note gives a tenth of a degree.
        #expect(
            abs((noted(result.stderr) ?? 0) - theirs) <= 0.05, "ours \(noted(result.stderr) ?? 0), exiftool \(theirs)")
    }

    @Test("without an equivalent: the focal length on the sensor the focal plane resolution gives")
    func fromFocalPlane() async throws {
        let directory = try PackagePaths.temporaryDirectory("fov")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = directory.appendingPathComponent("plane.jpg").path
        try FileManager.default.copyItem(atPath: PackagePaths.sample("photos/lund_01.jpg"), toPath: photo)
        // 1024 pixels across (its PixelXDimension) at 2133.33 per cm: a sensor 4.8 mm wide.
        _ = try await run(
            "exiftool",
            [
                "-q", "-q", "-overwrite_original", "-FocalLengthIn35mmFormat=", "-FocalPlaneResolutionUnit=cm",
                "-FocalPlaneXResolution=2133.3333", "-FocalPlaneYResolution=2133.3333", photo,
            ], package: "libimage-exiftool-perl")
        let result = try await Binary.run([
            "annotate", photo, "--pois", AnnotateCommandTests.pois, "--output",
            directory.appendingPathComponent("out.jpg").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("from its focal length, 4.3 mm, on a sensor 4.80 mm across"), "\(result.stderr)")
        let expected = 2 * atan(4.8 / (2 * 4.3)) * 180 / .pi
        #expect(abs((noted(result.stderr) ?? 0) - expected) < 0.05, "\(result.stderr)")
        // Nothing to go on (the Nokia photo has a focal length only): refused with the fix, as before.
        let bare = try await Binary.run([
            "annotate", AnnotateCommandTests.photo, "--pois", AnnotateCommandTests.pois, "--output",
            directory.appendingPathComponent("bare.jpg").path,
        ])
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("a camera is required: --camera FILE.yaml or --hfov DEGREES"), "\(bare.stderr)")
    }
}
