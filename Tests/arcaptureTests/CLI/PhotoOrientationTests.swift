import Foundation
import TestSupport
import Testing

/// A photo stored turned (EXIF Orientation 6, as phones store portraits) is drawn on and written
/// upright, its EXIF kept with the orientation reset (issue 20, item 3). The turned photo is made
/// by ffmpeg and tagged by exiftool, and the result read back by both: tools independent of ours.
@Suite("arcapture annotate: photo orientation")
struct PhotoOrientationTests {
    private func exif(_ file: String) async throws -> [String: String] {
        let output = try await ProcessRunner.run(
            tool: "exiftool",
            [
                "-n", "-s", "-Orientation", "-ImageWidth", "-ImageHeight", "-Model", "-GPSLatitude",
                "-DateTimeOriginal", file,
            ],
            install: "apt-get install libimage-exiftool-perl"
        ).stdout
        var tags: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { tags[parts[0]] = parts[1] }
        }
        return tags
    }

    /// ffmpeg's PSNR of `a` against `b`, in dB.
    private func psnr(_ a: String, _ b: String) async throws -> Double {
        let result = try await ProcessRunner.run(
            tool: "ffmpeg", ["-v", "info", "-i", a, "-i", b, "-lavfi", "psnr", "-f", "null", "-"],
            install: "apt-get install ffmpeg")
        let text = result.stderr
        guard let range = text.range(of: "average:") else { return -1 }
        return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." }) ?? -1
    }

    /// The Helsinki photo stored a quarter turn anticlockwise, tagged "turn 90° clockwise to show"
    /// (orientation 6), its other EXIF tags copied.
    private func turnedCopy(at stored: String) async throws {
        let upright = AnnotateCommandTests.photo
        _ = try await ProcessRunner.run(
            tool: "ffmpeg", ["-v", "error", "-i", upright, "-vf", "transpose=2", "-q:v", "2", "-y", stored],
            install: "apt-get install ffmpeg")
        _ = try await ProcessRunner.run(
            tool: "exiftool",
            ["-q", "-TagsFromFile", upright, "-all:all", "-n", "-Orientation=6", "-overwrite_original", stored],
            install: "apt-get install libimage-exiftool-perl")
        let tagged = try await exif(stored)
        #expect(tagged["Orientation"] == "6" && tagged["ImageWidth"] == "686" && tagged["ImageHeight"] == "1600")
    }

    @Test("orientation 6: drawn as on the upright photo, written upright, EXIF kept with orientation 1")
    func turnedPhoto() async throws {
        let directory = try PackagePaths.temporaryDirectory("orientation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let upright = AnnotateCommandTests.photo
        let stored = directory.appendingPathComponent("stored.jpg").path
        try await turnedCopy(at: stored)

        let turned = directory.appendingPathComponent("turned-annotated.jpg").path
        let result = try await Binary.run(
            ["annotate", stored, "--pois", AnnotateCommandTests.pois] + AnnotateCommandTests.pose + [
                "--output", turned,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "is stored turned (EXIF orientation 6); it is drawn on and written upright, 1600x686"))
        let reference = directory.appendingPathComponent("upright-annotated.jpg").path
        let direct = try await Binary.run(
            ["annotate", upright, "--pois", AnnotateCommandTests.pois] + AnnotateCommandTests.pose + [
                "--output", reference,
            ])
        #expect(direct.status == 0, "\(direct.stderr)")

        let written = try await exif(turned)
        #expect(written["Orientation"] == "1", "\(written)")
        #expect(written["ImageWidth"] == "1600" && written["ImageHeight"] == "686", "\(written)")
        #expect(written["Model"] == "Nokia 8.3 5G")
        #expect(written["DateTimeOriginal"] == "2022:08:14 14:12:31")
        #expect(abs((Double(written["GPSLatitude"] ?? "") ?? 0) - 60.14670556) < 1e-6)
        // The same overlay in the same place: close to the upright photo's annotation (only the
        // turned copy's extra encode differs), much further from the photo without one.
        let same = try await psnr(turned, reference)
        let unannotated = try await psnr(turned, upright)
        #expect(same > 38, "PSNR \(same) dB")
        #expect(
            same > unannotated + 8, "PSNR \(same) dB against the reference, \(unannotated) dB against the bare photo")
    }

    @Test("a folder of turned geotagged photos: each drawn and written upright, its EXIF kept")
    func turnedFolder() async throws {
        let directory = try PackagePaths.temporaryDirectory("orientation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await turnedCopy(at: folder.appendingPathComponent("portrait.jpg").path)
        let result = try await Binary.run([
            "annotate", folder.path, "--pois", AnnotateCommandTests.pois, "--hfov", "100", "--output",
            directory.path + "/out/%02n.jpg",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1 frames in, 1 out (1 annotated"), "\(result.stderr)")
        let written = try await exif(directory.path + "/out/01.jpg")
        #expect(written["Orientation"] == "1" && written["ImageWidth"] == "1600" && written["ImageHeight"] == "686")
        #expect(written["Model"] == "Nokia 8.3 5G" && written["DateTimeOriginal"] == "2022:08:14 14:12:31")
    }
}
