import Foundation
import TestSupport
import Testing

/// A recording its camera split into chapters, given as several files (issue 40, item 7), run as a
/// user runs the built binary: the GoPro clip cut by ffmpeg's segmenter into `GX010001.MP4` and
/// `GX020001.MP4` must annotate, sync and batch as the clip itself does.
@Suite("arcapture with a recording split into chapters")
struct SplitRecordingTests {
    static let options = [
        "--pois", PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson"), "--hfov", "118",
        "--heading-from-course", "--max-distance", "40000",
    ]

    /// Each packet of `file` as ffprobe lists it: stream, presentation time and a CRC32 of its data.
    private func packets(_ file: String) async throws -> [(stream: Int, time: Double, hash: String)] {
        let probe = try await ProcessRunner.run(
            tool: "ffprobe",
            [
                "-v", "error", "-show_packets", "-show_data_hash", "CRC32", "-show_entries",
                "packet=stream_index,pts_time,data_hash", "-of", "csv=p=0", file,
            ], install: "apt-get install ffmpeg")
        #expect(probe.status == 0, "\(probe.stderr)")
        return probe.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 3, let stream = Int(fields[0]), let time = Double(fields[1]) else { return nil }
            return (stream, time, fields[2])
        }.sorted { ($0.stream, $0.time) < ($1.stream, $1.time) }
    }

    @Test("annotate GX01 GX02: the clip's frames, poses and sidecar, its audio and telemetry copied across the join")
    func annotateChapters() async throws {
        let directory = try PackagePaths.temporaryDirectory("split")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chapters = try await SplitRecording.chapters(in: directory)
        func annotate(_ inputs: [String], _ name: String) async throws -> ProcessRunner.Result {
            try await Binary.run(
                ["annotate"] + inputs + Self.options + [
                    "--output", directory.appendingPathComponent("\(name).mp4").path, "--sidecar",
                    directory.appendingPathComponent("\(name).jsonl").path,
                ])
        }
        let whole = try await annotate([SplitRecording.goProClip], "whole")
        #expect(whole.status == 0, "\(whole.stderr)")
        let joined = try await annotate(chapters, "joined")
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(
            joined.stderr.contains(
                "note: poses from the own GPS of 2 joined files (\(chapters[0]) … \(chapters[1])): 191 fixes from 11 "
                    + "GPMF payloads"), "\(joined.stderr)")
        #expect(
            joined.stderr.contains("note: time: the first frame at 2019-11-18T23:45:15.425Z from the video's GPS clock")
        )
        #expect(joined.stderr.contains("315 frames in, 315 out (315 annotated, 0 without a pose passed through)"))
        #expect(!joined.stderr.contains("warning:"), "\(joined.stderr)")
        // Every frame's time, pose and what was drawn where: the clip's, byte for byte.
        let sidecars = try ["whole", "joined"].map {
            try Data(contentsOf: directory.appendingPathComponent("\($0).jsonl"))
        }
        #expect(sidecars[0].count > 0 && sidecars[0] == sidecars[1])
        // The written videos: the same frames at the same times; the same audio and telemetry packets.
        let expected = try await packets(directory.appendingPathComponent("whole.mp4").path)
        let written = try await packets(directory.appendingPathComponent("joined.mp4").path)
        for stream in 0...2 {
            let ours = written.filter { $0.stream == stream }
            let theirs = expected.filter { $0.stream == stream }
            #expect(ours.count == theirs.count && !ours.isEmpty, "stream \(stream): \(ours.count) packets")
            // ffmpeg's segmenter started the second file's audio at 8 ms where the clip has 8.3.
            #expect(zip(ours, theirs).allSatisfy { abs($0.time - $1.time) < 0.001 }, "stream \(stream)'s times")
            if stream > 0 {
                #expect(
                    zip(ours, theirs).allSatisfy { $0.hash == $1.hash }, "stream \(stream) copied packet for packet")
            }
        }
        #expect(written.filter { $0.stream == 0 }.count == 315)
        #expect(written.filter { $0.stream == 1 }.count == 493 && written.filter { $0.stream == 2 }.count == 11)
    }

    @Test("annotate GX01 GX02 --overlay-only: the clip's overlay track, frame for frame, timed across the join")
    func overlayOnlyChapters() async throws {
        let directory = try PackagePaths.temporaryDirectory("split")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chapters = try await SplitRecording.chapters(in: directory)
        func overlay(_ inputs: [String], _ name: String) async throws -> (ProcessRunner.Result, String) {
            let path = directory.appendingPathComponent("\(name).mov").path
            return (
                try await Binary.run(
                    ["annotate"] + inputs + Self.options + [
                        "--overlay-only", "--codec", "qtrle", "--output", path, "--sidecar",
                        directory.appendingPathComponent("\(name).jsonl").path,
                    ]), path
            )
        }
        let (whole, wholePath) = try await overlay([SplitRecording.goProClip], "whole")
        #expect(whole.status == 0, "\(whole.stderr)")
        let (joined, joinedPath) = try await overlay(chapters, "joined")
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stderr.contains("315 frames in, 315 out (315 annotated"), "\(joined.stderr)")
        let sidecars = try ["whole", "joined"].map {
            try Data(contentsOf: directory.appendingPathComponent("\($0).jsonl"))
        }
        #expect(sidecars[0].count > 0 && sidecars[0] == sidecars[1])
        // The drawing alone (no audio, no telemetry): each frame's packet the clip's, at its time.
        let (ours, theirs) = (try await packets(joinedPath), try await packets(wholePath))
        #expect(Set(ours.map(\.stream)) == Set(theirs.map(\.stream)), "the same streams")
        let video = (ours.filter { $0.stream == 0 }, theirs.filter { $0.stream == 0 })
        #expect(video.0.count == 315 && video.1.count == 315)
        #expect(zip(video.0, video.1).allSatisfy { abs($0.time - $1.time) < 0.001 && $0.hash == $1.hash })
    }

    @Test("sync with each chapter's --footage: the clip's span and poses, the files named")
    func syncChapters() async throws {
        let directory = try PackagePaths.temporaryDirectory("split")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chapters = try await SplitRecording.chapters(in: directory)
        func sync(_ footage: [String]) async throws -> [String: Any] {
            let result = try await Binary.run(["sync", "--json"] + footage.flatMap { ["--footage", $0] })
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
        let whole = try await sync([SplitRecording.goProClip])
        let joined = try await sync(chapters)
        let footage = try #require(joined["footage"] as? [String: Any])
        let expected = try #require(whole["footage"] as? [String: Any])
        #expect(footage["files"] as? [String] == chapters && expected["files"] == nil)
        for key in ["frames", "first_frame", "last_frame", "start_origin"] {
            #expect("\(footage[key] ?? "none")" == "\(expected[key] ?? "-")", "\(key)")
        }
        #expect(footage["frames"] as? Int == 315)
        let samples = try #require(joined["samples"] as? NSArray)
        #expect(
            samples.count == 3 && samples.isEqual(whole["samples"]), "the poses at the first, middle and last frame")
        let text = try await Binary.run(["sync"] + chapters.flatMap { ["--footage", $0] })
        #expect(
            text.stdout.contains("footage  \(chapters[0]) … \(chapters[1]) (video, 2 files joined)"), "\(text.stdout)")
    }

    @Test("location GX01 GX02: every fix of the clip's own GPS, at the same time and place")
    func locationChapters() async throws {
        let directory = try PackagePaths.temporaryDirectory("split")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chapters = try await SplitRecording.chapters(in: directory)
        func fixes(_ sources: [String]) async throws -> [String] {
            let result = try await Binary.run(["location"] + sources + ["--json"])
            #expect(result.status == 0, "\(result.stderr)")
            // Each fix without the wall-clock time it was printed at.
            return try result.stdout.split(separator: "\n").compactMap { line in
                var event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                guard event["event"] as? String == "fix" else { return nil }
                event["received"] = nil
                let data = try JSONSerialization.data(withJSONObject: event, options: .sortedKeys)
                return String(decoding: data, as: UTF8.self)
            }
        }
        let whole = try await fixes([SplitRecording.goProClip])
        let joined = try await fixes(chapters)
        #expect(whole.count == 191 && joined == whole)
        let mixed = try await Binary.run(["location", chapters[0], PackagePaths.sample("gpx/karma-logger.gpx")])
        #expect(mixed.status == 64)
        #expect(mixed.stderr.contains("is not a video file: several SOURCEs are the video files of one recording"))
    }

    @Test("chapters in the wrong order, of another recording, or with a photo among them: refused, nothing written")
    func refusals() async throws {
        let directory = try PackagePaths.temporaryDirectory("split")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chapters = try await SplitRecording.chapters(in: directory)
        let output = directory.appendingPathComponent("out.mp4").path
        let reversed = try await Binary.run(["annotate"] + chapters.reversed() + Self.options + ["--output", output])
        #expect(reversed.status == 65)
        #expect(
            reversed.stderr.contains(
                "error: \(chapters[0]): its own clock puts it 10.5 s before where it falls in the joined video: the "
                    + "files are not in recording order"), "\(reversed.stderr)")
        let karma = PackagePaths.sample("video/karma.mp4")
        let other = try await Binary.run(["annotate", chapters[0], karma] + Self.options + ["--output", output])
        #expect(other.status == 65)
        #expect(other.stderr.contains("error: \(karma): it does not continue \(chapters[0]) as a chapter"))
        let photo = PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg")
        let mixed = try await Binary.run(["annotate", chapters[0], photo] + Self.options + ["--output", output])
        #expect(mixed.status == 64)
        #expect(mixed.stderr.contains("error: \(photo) is not a video file: only the video files of one recording"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("a batch row whose footage is the chapters (an array in JSON lines, | in CSV) is annotated as one video")
    func batchRow() async throws {
        let directory = try PackagePaths.temporaryDirectory("split")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chapters = try await SplitRecording.chapters(in: directory)
        let names = chapters.map { URL(fileURLWithPath: $0).lastPathComponent }
        let json = directory.appendingPathComponent("rides.jsonl").path
        let row: [String: Any] = ["footage": names, "output": "ride.mp4"]
        try String(decoding: try JSONSerialization.data(withJSONObject: row), as: UTF8.self).appending("\n").write(
            toFile: json, atomically: true, encoding: .utf8)
        let csv = directory.appendingPathComponent("rides.csv").path
        try "footage,output\n\(names.joined(separator: "|")),ride.mkv\n".write(
            toFile: csv, atomically: true, encoding: .utf8)
        for (manifest, output) in [(json, "ride.mp4"), (csv, "ride.mkv")] {
            let result = try await Binary.run(["annotate", "--batch", manifest] + Self.options + ["--workers", "1"])
            #expect(result.status == 0, "\(result.stderr)")
            let count = try await ProcessRunner.run(
                tool: "ffprobe",
                [
                    "-v", "error", "-count_packets", "-select_streams", "v:0", "-show_entries",
                    "stream=nb_read_packets", "-of", "csv=p=0", directory.appendingPathComponent(output).path,
                ], install: "apt-get install ffmpeg")
            #expect(
                count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "315", "\(output): \(result.stderr)")
        }
    }
}
