import ArcaptureCore
import Foundation
import TestSupport
import Testing

/// Nothing of the photo lost (issue 39, item 7): an annotated photo keeps its colour profile, XMP,
/// IPTC and comments as `jpegtran -copy all` keeps them, also when the picture is encoded whole
/// (turned upright, `--no-splice`, `--quality`), one photo or a folder. References: jpegtran's
/// own copy, and exiftool reading the result.
@Suite("arcapture annotate: a photo's metadata kept")
struct PhotoMetadataKeptTests {
    private func run(_ tool: String, _ arguments: [String], package: String) async throws -> String {
        try await ProcessRunner.output(tool: tool, arguments, package: package)
    }

    /// The metadata segments of the JPEG at `path` (application segments other than JFIF, and
    /// comments), whole, in their order.
    private func metadataSegments(_ path: String) throws -> [[UInt8]] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let segments = try #require(JPEGStructure.headerSegments(of: bytes), "\(path)")
        return segments.filter { marker, range in
            (0xE1...0xEF).contains(marker) || marker == 0xFE
                || marker == 0xE0 && !bytes[(range.lowerBound + 4)...].starts(with: "JFIF\0".utf8)
        }.map { Array(bytes[$0.range]) }
    }

    /// The Lund photo (EXIF, an ICC profile, XMP) with IPTC keywords and a comment added by exiftool.
    private func richPhoto(at path: String) async throws {
        try FileManager.default.copyItem(atPath: PackagePaths.sample("photos/lund_01.jpg"), toPath: path)
        _ = try await run(
            "exiftool",
            [
                "-q", "-q", "-overwrite_original", "-IPTC:Keywords=arcapture-test", "-IPTC:City=Lund",
                "-Comment=kept by arcapture", path,
            ], package: "libimage-exiftool-perl")
    }

    @Test("encoded whole (--no-splice), one photo or a folder: the segments jpegtran -copy all keeps, byte for byte")
    func asJpegtran() async throws {
        let directory = try PackagePaths.temporaryDirectory("metadata")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = folder.appendingPathComponent("lund.jpg").path
        try await richPhoto(at: photo)
        let reference = directory.appendingPathComponent("jpegtran.jpg").path
        _ = try await run(
            "jpegtran", ["-copy", "all", "-outfile", reference, photo], package: "libjpeg-turbo-progs")
        let kept = try metadataSegments(reference)
        // EXIF, the ICC profile, XMP, IPTC and the comment.
        #expect(kept.count >= 5)

        let one = directory.appendingPathComponent("one.jpg").path
        let single = try await Binary.run([
            "annotate", photo, "--pois", AnnotateCommandTests.pois, "--hfov", "60", "--no-splice", "--output", one,
        ])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(try metadataSegments(one) == kept)

        let many = try await Binary.run([
            "annotate", folder.path, "--pois", AnnotateCommandTests.pois, "--hfov", "60", "--quality", "85",
            "--output", directory.appendingPathComponent("out/%n.jpg").path,
        ])
        #expect(many.status == 0, "\(many.stderr)")
        #expect(try metadataSegments(directory.appendingPathComponent("out/1.jpg").path) == kept)

        // exiftool reads them back: the profile is the photo's, bit for bit.
        let profile = try await run("exiftool", ["-b", "-ICC_Profile", photo], package: "libimage-exiftool-perl")
        #expect(!profile.isEmpty)
        await #expect(try run("exiftool", ["-b", "-ICC_Profile", one], package: "libimage-exiftool-perl") == profile)
        let tags = try await run(
            "exiftool", ["-s3", "-IPTC:Keywords", "-IPTC:City", "-Comment", "-XMP:XMPToolkit", one],
            package: "libimage-exiftool-perl")
        #expect(tags == "arcapture-test\nLund\nkept by arcapture\nImage::ExifTool 11.65\n", "\(tags)")
    }

    @Test("turned upright: EXIF's and XMP's orientation become 1, the rest is kept")
    func turned() async throws {
        let directory = try PackagePaths.temporaryDirectory("metadata")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photo = directory.appendingPathComponent("turned.jpg").path
        try await richPhoto(at: photo)
        _ = try await run(
            "exiftool",
            ["-q", "-q", "-overwrite_original", "-n", "-EXIF:Orientation=6", "-XMP-tiff:Orientation=6", photo],
            package: "libimage-exiftool-perl")
        let output = directory.appendingPathComponent("out.jpg").path
        let result = try await Binary.run([
            "annotate", photo, "--pois", AnnotateCommandTests.pois, "--hfov", "60", "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let orientations = try await run(
            "exiftool", ["-n", "-s3", "-EXIF:Orientation", "-XMP-tiff:Orientation", output],
            package: "libimage-exiftool-perl")
        #expect(orientations == "1\n1\n", "\(orientations)")
        let tags = try await run(
            "exiftool", ["-s3", "-ProfileDescription", "-IPTC:Keywords", "-Comment", output],
            package: "libimage-exiftool-perl")
        #expect(tags == "sRGB IEC61966-2.1\narcapture-test\nkept by arcapture\n", "\(tags)")
        // Stored 1024 x 768 and turned a quarter: 768 across.
        let size = try await run("exiftool", ["-s3", "-ImageSize", output], package: "libimage-exiftool-perl")
        #expect(size == "768x1024\n", "\(size)")
    }
}
