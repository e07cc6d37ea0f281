import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore

/// iPhone photos: a real iPhone 7 HEIC (samples/photos, MIT) annotated as a JPEG photo is, its
/// EXIF, colour profile and picture checked with ExifTool and with libheif's own heif-convert
/// and ffmpeg, which share no code with arcapture's conversion.
@Suite("arcapture annotate: HEIC photos")
struct HEICPhotoTests {
    static let photo = PackagePaths.sample("photos/heic-iphone7.heic")

    /// Two places 5 km from where the photo was taken: one straight ahead (its image direction,
    /// 264.3°), one behind.
    static func pois(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("pois.geojson").path
        try """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"Ahead"},"geometry":{"type":"Point","coordinates":[12.93760,38.04220]}},
        {"type":"Feature","properties":{"name":"Behind"},"geometry":{"type":"Point","coordinates":[13.0512,38.0511]}}]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// ExifTool's `-s` lines for `tags` of `file`, as a dictionary.
    static func exifTool(_ file: String, _ tags: [String]) async throws -> [String: String] {
        let output = try await ProcessRunner.output(
            tool: "exiftool", ["-s", "-n"] + tags.map { "-" + $0 } + [file], package: "libimage-exiftool-perl")
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            values[line[..<colon].trimmingCharacters(in: .whitespaces)] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    /// The PSNR of `a` against `b` over the region `crop` (ffmpeg's `crop` filter's w:h:x:y), by ffmpeg.
    static func psnr(_ a: String, _ b: String, crop: String) async throws -> Double {
        let result = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "info", "-i", a, "-i", b, "-lavfi", "[0:v]crop=\(crop)[a];[1:v]crop=\(crop)[b];[a][b]psnr",
                "-f", "null", "-",
            ], install: "apt-get install ffmpeg")
        guard let range = result.stderr.range(of: "average:") else { return 0 }
        return Double(result.stderr[range.upperBound...].prefix { !$0.isWhitespace }) ?? 0
    }

    @Test("an iPhone's HEIC is drawn for its EXIF pose and lens, and written as a JPEG keeping its EXIF and P3 profile")
    func iPhonePhoto() async throws {
        let directory = try PackagePaths.temporaryDirectory("heic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("sicily.jpg").path
        let result = try await Binary.run([
            "annotate", Self.photo, "--pois", try Self.pois(in: directory), "--max-distance", "10000", "--output",
            output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("heading 264.3° (its image direction)"), "\(result.stderr)")
        #expect(result.stderr.contains("63.4° across, from its 35 mm equivalent focal length, 28 mm"))
        #expect(result.stderr.contains("from the EXIF time with its offset (OffsetTimeOriginal +02:00)"))
        #expect(result.stderr.contains("1 markers, 1 labels"), "the place ahead drawn, the one behind an arrow")

        let tags = [
            "ImageWidth", "ImageHeight", "Orientation", "GPSLatitude", "GPSLongitude", "GPSImgDirection",
            "DateTimeOriginal", "OffsetTimeOriginal", "Make", "Model", "FocalLengthIn35mmFormat", "ProfileDescription",
        ]
        let written = try await Self.exifTool(output, tags)
        let original = try await Self.exifTool(Self.photo, tags)
        #expect(written["ImageWidth"] == "4032" && written["ImageHeight"] == "3024")
        #expect(written["Orientation"] == "1")
        for tag in tags.dropFirst(3) {
            #expect(written[tag] != nil && written[tag] == original[tag], "\(tag): \(written[tag] ?? "none")")
        }
        #expect(written["ProfileDescription"] == "Display P3")

        // The picture away from the labels is libheif's own decoding, to within JPEG's loss.
        let reference = directory.appendingPathComponent("reference.jpg").path
        _ = try await ProcessRunner.output(
            tool: "heif-convert", ["-q", "95", Self.photo, reference], package: "libheif-examples")
        let sky = try await Self.psnr(output, reference, crop: "1024:768:0:0")
        #expect(sky > 38, "PSNR \(sky) dB in the sky, against heif-convert's")
    }

    @Test("HEIF's own rotation rules: an EXIF orientation in a HEIC turns nothing, and the JPEG written says 1")
    func orientationIgnored() async throws {
        let directory = try PackagePaths.temporaryDirectory("heic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let turned = directory.appendingPathComponent("turned.heic").path
        _ = try await ProcessRunner.output(
            tool: "exiftool", ["-n", "-Orientation=6", "-o", turned, Self.photo], package: "libimage-exiftool-perl")
        await #expect(try Self.exifTool(turned, ["Orientation"])["Orientation"] == "6")
        let output = directory.appendingPathComponent("out.jpg").path
        let result = try await Binary.run([
            "annotate", turned, "--pois", try Self.pois(in: directory), "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("stored turned"))
        let written = try await Self.exifTool(output, ["ImageWidth", "ImageHeight", "Orientation"])
        #expect(written["ImageWidth"] == "4032" && written["ImageHeight"] == "3024", "\(written)")
        #expect(written["Orientation"] == "1")
    }

    @Test(
        "a folder of a HEIC, a JPEG and a broken HEIC: both photos annotated from their geotags, the broken one named and skipped"
    )
    func folder() async throws {
        let directory = try PackagePaths.temporaryDirectory("heic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.photo, toPath: folder.appendingPathComponent("a.heic").path)
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("photos/lund_01.jpg"), toPath: folder.appendingPathComponent("b.jpg").path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.photo))
        try whole.prefix(40_000).write(to: folder.appendingPathComponent("c.HEIC"))
        let output = directory.appendingPathComponent("out").path
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run([
            "annotate", folder.path, "--pois", try Self.pois(in: directory), "--hfov", "63.4", "--orientation", "264.3",
            "--output", output + "/%02n.jpg", "--sidecar", sidecar,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("\(folder.path)/c.HEIC: not a HEIF image libheif can read ("), "\(result.stderr)")
        #expect(result.stderr.contains("3 frames in, 2 out (2 annotated"))
        let records = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 2, "\(records)")
        let heic = try #require(records.first)
        let pose = try #require(heic["pose"] as? [String: Any])
        #expect(abs((pose["lat"] as? Double ?? 0) - 38.0466417) < 1e-6, "the HEIC's own geotag: \(pose)")
        #expect((heic["time"] as? String)?.hasPrefix("2019-10-20T16:34:30") == true)
        let first = try await Self.exifTool(output + "/01.jpg", ["Make", "Model", "ProfileDescription"])
        #expect(first["Model"] == "iPhone 7" && first["ProfileDescription"] == "Display P3", "\(first)")
    }

    @Test("a HEIC is a photo, not a video; an MP4 is still a video")
    func signatures() throws {
        let heic = Array(try Data(contentsOf: URL(fileURLWithPath: Self.photo)).prefix(64))
        #expect(MediaFileSignature.isHEIFImage(head: heic))
        #expect(!MediaFileSignature.isVideoFile(Self.photo))
        let video = PackagePaths.sample("video/max-heromode.mp4")
        #expect(
            !MediaFileSignature.isHEIFImage(head: Array(try Data(contentsOf: URL(fileURLWithPath: video)).prefix(64))))
        #expect(MediaFileSignature.isVideoFile(video))
    }
}
