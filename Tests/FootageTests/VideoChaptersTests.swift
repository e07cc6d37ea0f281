import Foundation
import Positioning
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage

/// A recording its camera split into files, read as one (issue 40, item 7), checked against the
/// file it was cut from: the GoPro clip cut by ffmpeg's segmenter into two chapters must read as
/// the clip itself, frame for frame, fix for fix; DJI subtitle files cut the same way must give
/// the whole file's times.
@Suite("A recording split into files, read as one")
struct VideoChaptersTests {
    /// Every frame's presentation time and luma plane.
    private func frames(_ reader: FootageReader) -> [(time: Double?, luma: [UInt8])] {
        var frames: [(Double?, [UInt8])] = []
        while var frame = reader.next() {
            if let planes = frame.takePlanes() {
                frames.append((frame.presentationTime, planes.planes[0].bytes))
                reader.pool.give(planes)
            }
        }
        return frames
    }

    @Test("two GoPro chapters read as the clip they were cut from: every frame at its time, the very pictures")
    func goProFrames() async throws {
        let directory = try PackagePaths.temporaryDirectory("chapters")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chapters = try await SplitRecording.chapters(in: directory)
        let joined = try FootageReader(chapters: chapters)
        #expect(joined.fileCount == 2)
        #expect(joined.video?.frameCount == 315, "150 + 165 frames, as the containers say")
        let whole = frames(try FootageReader(path: SplitRecording.goProClip))
        let read = frames(joined)
        #expect(whole.count == 315 && read.count == 315)
        for (index, (ours, theirs)) in zip(read, whole).enumerated() {
            #expect(abs((ours.time ?? -1) - (theirs.time ?? -2)) < 1e-6, "frame \(index)'s time")
            #expect(ours.luma == theirs.luma, "frame \(index)'s picture")
            if ours.luma != theirs.luma { break }
        }
        #expect(joined.notes.isEmpty && joined.truncatedFrames == 0 && joined.shortfall == nil)
    }

    @Test("two GoPro chapters' telemetry is the clip's: every fix and attitude at the same time, the same start")
    func goProTelemetry() async throws {
        let directory = try PackagePaths.temporaryDirectory("chapters")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chapters = try await SplitRecording.chapters(in: directory)
        let joined = try EmbeddedTelemetry.read(chapters: chapters)
        let whole = try EmbeddedTelemetry.read(SplitRecording.goProClip)
        #expect(!joined.isRelative)
        #expect(joined.origin == "the own GPS of 2 joined files (\(chapters[0]) … \(chapters[1]))")
        let start = try #require(joined.videoStart)
        #expect(abs(start.timeIntervalSince(try #require(whole.videoStart))) < 1e-6, "the GPS clock over both files")
        #expect(joined.track.fixes.count == 191 && whole.track.fixes.count == 191)
        for (ours, theirs) in zip(joined.track.fixes, whole.track.fixes) {
            #expect(abs(ours.time.timeIntervalSince(theirs.time)) < 1e-6)
            #expect(ours.coordinate == theirs.coordinate)
        }
        #expect(joined.track.attitudes.count == whole.track.attitudes.count)
        #expect(
            zip(joined.track.attitudes, whole.track.attitudes).allSatisfy {
                abs($0.time.timeIntervalSince($1.time)) < 1e-6 && $0.pitch == $1.pitch
            })
        // Through FootageInfo too (what sync describes).
        let info = try FootageInfo.probe(chapters: chapters)
        #expect(info.frameCount == 315 && info.metadataStart?.date == joined.videoStart)
    }

    @Test("chapters out of order are refused by their GPS clock; a file of another recording by its video")
    func refusals() async throws {
        let directory = try PackagePaths.temporaryDirectory("chapters")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chapters = try await SplitRecording.chapters(in: directory)
        #expect {
            try EmbeddedTelemetry.read(chapters: chapters.reversed())
        } throws: { error in
            let text = (error as? InputFileError)?.description ?? ""
            return text.hasPrefix("\(chapters[0]): its own clock puts it")
                && text.contains("not in recording order, or not of one recording")
                && text.contains("GX010001.MP4 GX020001.MP4")
        }
        // The Karma clip is 854x480: not a chapter of the MAX's 848x480 recording.
        let karma = PackagePaths.sample("video/karma.mp4")
        #expect {
            try FootageReader(chapters: [chapters[0], karma])
        } throws: { error in
            (error as? InputFileError)?.description
                == "\(karma): it does not continue \(chapters[0]) as a chapter of one recording: its video is 854x480 "
                + "h264 yuvj420p, the first's 848x480 h264 yuvj420p"
        }
        #expect {
            try FootageReader(chapters: [chapters[0], directory.path])
        } throws: { error in
            (error as? InputFileError)?.description.contains("not a video file") == true
        }
        #expect {
            try FootageReader(chapters: [chapters[0], directory.appendingPathComponent("GX030001.MP4").path])
        } throws: { error in
            if case .missing = error as? InputFileError { return true }
            return false
        }
    }

    /// A clip of `frames` frames at 1 fps (a DJI file's length, at a test's cost), by ffmpeg.
    private static func clip(_ path: String, frames: Int) async throws {
        let made = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=1", "-frames:v", "\(frames)", "-c:v",
                "libx264", "-pix_fmt", "yuv420p", "-y", path,
            ], install: "apt-get install ffmpeg")
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// The cues of a subtitle file from `from` s (inclusive) to `to` s (exclusive) of their start,
    /// moved `from` s earlier and renumbered from 1: what a drone writes beside the file that
    /// begins there. Written here from SRT's layout (a number, a timing line, text, a blank line).
    private static func cues(of text: String, from: Double, to: Double) -> String {
        func seconds(_ time: Substring) -> Double {
            let parts = time.split(whereSeparator: { $0 == ":" || $0 == "," }).compactMap { Double($0) }
            return parts.count == 4 ? parts[0] * 3600 + parts[1] * 60 + parts[2] + parts[3] / 1000 : -1
        }
        func format(_ value: Double) -> String {
            let milliseconds = Int((value * 1000).rounded())
            return String(
                format: "%02d:%02d:%02d,%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60,
                milliseconds / 1000 % 60, milliseconds % 1000)
        }
        var out: [String] = []
        let blocks = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")
        for block in blocks {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count >= 2, let arrow = lines[1].range(of: " --> ") else { continue }
            let start = seconds(lines[1][..<arrow.lowerBound])
            let end = seconds(lines[1][arrow.upperBound...])
            guard start >= from, start < to else { continue }
            out.append(
                (["\(out.count + 1)", "\(format(start - from)) --> \(format(end - from))"]
                    + lines.dropFirst(2).map(String.init))
                    .joined(separator: "\n"))
        }
        return out.joined(separator: "\n\n") + "\n"
    }

    @Test(
        "DJI files with their .SRT beside each, cut at 60 s: the whole file's times, its clock or none",
        arguments: ["JuanIrache/mavic_mini.SRT", "JuanIrache/mavic_pro.SRT"])
    func djiFiles(subtitles: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("chapters")
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try String(contentsOfFile: PackagePaths.sample("dji-srt/\(subtitles)"), encoding: .utf8)
        // mavic_mini: 117 cues 1 s apart from 0 s, no clock; mavic_pro: 468 from 1 s, the drone's clock.
        let length = text.components(separatedBy: " --> ").count + 1
        let whole = directory.appendingPathComponent("whole/DJI_0001.MP4").path
        try FileManager.default.createDirectory(
            atPath: (whole as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try await Self.clip(whole, frames: length)
        try text.write(toFile: whole.replacingOccurrences(of: ".MP4", with: ".SRT"), atomically: true, encoding: .utf8)
        let parts = ["DJI_0001.MP4", "DJI_0002.MP4"].map { directory.appendingPathComponent($0).path }
        try await Self.clip(parts[0], frames: 60)
        try await Self.clip(parts[1], frames: length - 60)
        try Self.cues(of: text, from: 0, to: 60).write(
            toFile: parts[0].replacingOccurrences(of: ".MP4", with: ".SRT"), atomically: true, encoding: .utf8)
        try Self.cues(of: text, from: 60, to: 100_000).write(
            toFile: parts[1].replacingOccurrences(of: ".MP4", with: ".SRT"), atomically: true, encoding: .utf8)

        let expected = try EmbeddedTelemetry.read(whole)
        let joined = try EmbeddedTelemetry.read(chapters: parts)
        #expect(joined.isRelative == expected.isRelative)
        #expect(joined.isRelative == (subtitles == "JuanIrache/mavic_mini.SRT"))
        #expect(joined.videoStart == expected.videoStart)
        #expect(joined.track.fixes.count == expected.track.fixes.count && !expected.track.fixes.isEmpty)
        for (ours, theirs) in zip(joined.track.fixes, expected.track.fixes) {
            #expect(abs(ours.time.timeIntervalSince(theirs.time)) < 1e-6)
            // Positions written to 4 decimals are averaged over 2.5 s either side, within each file.
            let sinceJoin = abs(ours.time.timeIntervalSince(expected.videoStart ?? Date(timeIntervalSince1970: 0)) - 60)
            // (Sums in another order: equal to 1e-9°, a tenth of a millimetre.)
            if sinceJoin > 3 {
                #expect(
                    abs(ours.coordinate.latitude - theirs.coordinate.latitude) < 1e-9
                        && abs(ours.coordinate.longitude - theirs.coordinate.longitude) < 1e-9)
            }
        }
        if !joined.isRelative {
            #expect {
                try EmbeddedTelemetry.read(chapters: parts.reversed())
            } throws: { error in
                (error as? InputFileError)?.description.contains("not in recording order") == true
            }
        }
    }
}
