import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Positioning

/// The djmd decoding (issue 40, item 2) on messages Google's protobuf for Python wrote from the
/// vendored schemas (`DJIMetadataVideo.messages`), without a container; and the generated C code
/// held to what protoc-c writes from those schemas.
@Suite("DJI metadata messages (djmd)")
struct DJIMetadataTrackBuilderTests {
    @Test("GPS time stamps with any separators read as UTC; what is not a date refused")
    func stamps() {
        let expected = Date(timeIntervalSince1970: 1_714_557_605)
        #expect(DJIMetadataTrackBuilder.stamp("2024-05-01 10:00:05") == expected)
        #expect(DJIMetadataTrackBuilder.stamp("2024-05-01 10-00-05") == expected, "the schema's own comment's form")
        #expect(DJIMetadataTrackBuilder.stamp("2024:05:01 10:00:05") == expected)
        for text in ["", "2024-05-01", "2024-13-01 10:00:05", "1980-01-06 00:00:00", "2024-05-01 25:00:00"] {
            #expect(DJIMetadataTrackBuilder.stamp(text) == nil, "\(text)")
        }
    }

    @Test("frames before the clip header and messages that do not decode are skipped, the latter named")
    func damaged() throws {
        let messages = try DJIMetadataVideo.messages(
            product: "ac203",
            frames: [
                ["lat": 55.7, "lon": 13.19],
                [
                    "clip": ["proto_file_name": "dvtm_ac204.proto", "product_name": "Osmo Action 5 Pro"], "lat": 55.7,
                    "lon": 13.19, "time": "2024-05-01 10:00:00",
                ],
                ["lat": 55.70001, "lon": 13.19, "time": "2024-05-01 10:00:01"],
            ])
        var builder = DJIMetadataTrackBuilder(path: "clip.mp4")
        builder.add(time: 0, bytes: messages[0])  // no header yet: which schema is unknown
        builder.add(time: 1, bytes: messages[1])
        builder.add(time: 1.5, bytes: [0x0A, 0xFF, 0x01])  // a field longer than the message
        builder.add(time: 2, bytes: messages[2])
        let (track, start, isRelative) = try builder.finish()
        #expect(!isRelative && start == Date(timeIntervalSince1970: 1_714_557_599))
        #expect(track.fixes.map(\.coordinate.latitude) == [55.7, 55.70001])
        #expect(
            track.warnings == [
                "clip.mp4: telemetry at 1.50 s: a 3-byte metadata message that is not the Osmo Action 4/5 "
                    + "(dvtm_ac203, ac204) schema's; skipped"
            ])
        #expect(track.summary.hasPrefix("2 fixes from 4 DJI metadata samples (Osmo Action 5 Pro"))
        #expect(track.summary.hasSuffix("; 1 messages that could not be decoded skipped"))
    }

    @Test("no message names its product: refused")
    func noHeader() throws {
        var builder = DJIMetadataTrackBuilder(path: "clip.mp4")
        builder.add(
            time: 0, bytes: try DJIMetadataVideo.messages(product: "ac203", frames: [["lat": 1.0, "lon": 2.0]])[0])
        #expect(
            throws: InputFileError.malformed(
                file: "clip.mp4", location: nil,
                problem: "its DJI metadata track (djmd, 1 samples) has no clip header naming its product")
        ) {
            try builder.finish()
        }
    }

    @Test("the committed C code is what protoc-c writes from the vendored schemas")
    func generatedCode() async throws {
        let directory = try PackagePaths.temporaryDirectory("dji-schemas")
        defer { try? FileManager.default.removeItem(at: directory) }
        let generated = try await ProcessRunner.run(
            tool: "bash",
            [PackagePaths.root.appendingPathComponent("scripts/generate-dji-metadata").path, directory.path],
            install: "apt-get install protobuf-c-compiler")
        try #require(generated.status == 0, "\(generated.stderr)")
        let committed = PackagePaths.root.appendingPathComponent("Sources/CDJIMetadata")
        let files =
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".c") }
            .map { $0 }
            + FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("include").path)
            .map { "include/\($0)" }
        #expect(files.count == 12, "\(files)")
        for file in files {
            let written = try Data(contentsOf: directory.appendingPathComponent(file))
            let kept = try Data(contentsOf: committed.appendingPathComponent(file))
            #expect(written == kept, "\(file) differs: run bash scripts/generate-dji-metadata")
        }
    }
}
