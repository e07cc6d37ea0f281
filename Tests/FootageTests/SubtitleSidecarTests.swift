import Foundation
import TestSupport
import Testing

@testable import Footage

/// How a DJI video's subtitle file is found beside it: `DJI_0001.MP4` → `DJI_0001.SRT`, the
/// extension in any case, never another clip's and never the video itself.
@Suite("a DJI video's .SRT beside it")
struct SubtitleSidecarTests {
    @Test("the same name with .SRT in any case, the exact upper case first; none for other names")
    func found() throws {
        let directory = try PackagePaths.temporaryDirectory("srt")
        defer { try? FileManager.default.removeItem(at: directory) }
        func touch(_ name: String) throws {
            try Data().write(to: directory.appendingPathComponent(name))
        }
        for name in ["DJI_0001.MP4", "DJI_0001.srt", "DJI_0002.MOV", "DJI_0002.SRT", "DJI_0002.srt", "DJI_0003.MP4"] {
            try touch(name)
        }
        try touch("DJI_00031.SRT")
        try touch("DJI_0003.MP4.SRT")
        let path = { (name: String) in directory.appendingPathComponent(name).path }
        #expect(EmbeddedTelemetry.subtitleFile(forVideo: path("DJI_0001.MP4")) == path("DJI_0001.srt"))
        #expect(EmbeddedTelemetry.subtitleFile(forVideo: path("DJI_0002.MOV")) == path("DJI_0002.SRT"))
        #expect(EmbeddedTelemetry.subtitleFile(forVideo: path("DJI_0003.MP4")) == nil)
        #expect(EmbeddedTelemetry.subtitleFile(forVideo: path("DJI_0002.SRT")) == nil, "a subtitle file is no video")
        #expect(EmbeddedTelemetry.subtitleFile(forVideo: "no-such-folder/DJI_0001.MP4") == nil)
    }
}
