import Foundation
import TestSupport
import Testing

/// A video cut short (issue 39, item 8): the GoPro clip remuxed by ffmpeg with its index first
/// (`+faststart`, as phones and cameras that finish their files write it) and cut at 60 % of its
/// bytes, as a copy stopped part-way leaves it. Its index still promises 315 frames.
@Suite("arcapture annotate: a video cut short says so")
struct CutShortVideoTests {
    @Test("a warning naming both counts and where it stops, 'cut short' in the summary; --strict exits 65")
    func cutShort() async throws {
        let directory = try PackagePaths.temporaryDirectory("cut-short")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = directory.appendingPathComponent("whole.mp4").path
        let remux = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-i", PackagePaths.sample("video/max-heromode.mp4"), "-map", "0:v", "-c", "copy",
                "-movflags", "+faststart", "-y", whole,
            ], install: "apt-get install ffmpeg")
        #expect(remux.status == 0, "\(remux.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = directory.appendingPathComponent("cut.mp4").path
        try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: cut))
        // ffprobe reads the index's promise: 315 frames.
        let probe = try await ProcessRunner.run(
            tool: "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=nb_frames", "-of", "csv=p=0", cut],
            install: "apt-get install ffmpeg")
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "315")

        func annotate(_ input: String, _ extra: [String] = []) async throws -> (
            status: Int32, stderr: String, output: String
        ) {
            let output = directory.appendingPathComponent("out-\(UUID().uuidString).mp4").path
            let result = try await Binary.run(
                [
                    "annotate", input, "--pois", PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"),
                    "--position", "60.1,24.9,0", "--orientation", "0", "--hfov", "120", "--output", output,
                ] + extra)
            return (result.status, result.stderr, output)
        }
        let warned = try await annotate(cut)
        #expect(warned.status == 0, "\(warned.stderr)")
        let line = try #require(
            warned.stderr.split(separator: "\n").first { $0.hasPrefix("warning: \(cut) is cut short") },
            "\(warned.stderr)")
        let read = try #require(line.firstMatch(of: /promises 315 frames and (\d+) were read: it stops at ([0-9.]+) s/))
        let frames = try #require(Int(read.1))
        #expect(frames > 100 && frames < 315)
        // The time it stops is the last frame's, at the clip's 29.97 fps.
        #expect(abs((Double(read.2) ?? 0) - Double(frames - 1) / 29.97) < 0.1, "\(line)")
        #expect(warned.stderr.contains("; cut short (\(frames) of 315 frames)"), "\(warned.stderr)")
        // What was read whole is written (the frame the cut went through is counted damaged), and
        // ffprobe counts it.
        let out = try #require(warned.stderr.firstMatch(of: /frames in, (\d+) out/).flatMap { Int($0.1) })
        #expect(out >= frames - 1 && out <= frames, "\(warned.stderr)")
        let written = try await ProcessRunner.run(
            tool: "ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                "-of", "csv=p=0", warned.output,
            ], install: "apt-get install ffmpeg")
        #expect(written.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(out)")

        let strict = try await annotate(cut, ["--strict"])
        #expect(strict.status == 65, "\(strict.stderr)")
        #expect(strict.stderr.contains("error: \(cut) is cut short, and --strict makes that an error"))
        #expect(FileManager.default.fileExists(atPath: strict.output))  // nothing read is lost

        // The whole file is not cut short, --strict or not.
        let complete = try await annotate(whole, ["--strict"])
        #expect(complete.status == 0, "\(complete.stderr)")
        #expect(!complete.stderr.contains("cut short"), "\(complete.stderr)")
    }
}
