import Foundation

/// A recording split into chapters as a camera splits it, made by the ffmpeg program (not by
/// arcapture) from a real clip: its video, audio and GoPro telemetry copied packet for packet into
/// files that each start at 0, cut at a keyframe, named as GoPro names its chapters
/// (`GX010001.MP4`, `GX020001.MP4`). No split recording from a camera is available under a
/// licence the project may use; ffmpeg's segmenter cuts as a GoPro does (each file's timestamps
/// restart, the telemetry's 1 s payloads stay whole), except that it rounds the second file's
/// audio start to the millisecond (8 ms, where the clip has 8.3).
public enum SplitRecording {
    /// The GoPro clip (`samples/video/max-heromode.mp4`), cut at its keyframe at 5.005 s (frame
    /// 150): 150 and 165 frames.
    public static let goProClip = PackagePaths.sample("video/max-heromode.mp4")

    /// Splits `clip` into chapters in `directory` at `seconds` (the keyframe at or after each),
    /// copying its video, audio and GoPro telemetry (`gpmd`); returns the chapters' paths in order.
    public static func chapters(
        of clip: String = goProClip, at seconds: [Double] = [5], in directory: URL, prefix: String = "GX"
    ) async throws -> [String] {
        let streams = try await ProcessRunner.run(
            tool: "ffprobe",
            ["-v", "error", "-show_entries", "stream=index,codec_type,codec_tag_string", "-of", "csv=p=0", clip],
            install: "apt-get install ffmpeg")
        // Video, audio and GoPro telemetry; the timecode track reappears from the video's metadata.
        let maps = streams.stdout.split(separator: "\n").compactMap { line -> [String]? in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 3, fields[1] == "video" || fields[1] == "audio" || fields[2] == "gpmd" else {
                return nil
            }
            return ["-map", "0:\(fields[0])"]
        }.flatMap { $0 }
        let pattern = directory.appendingPathComponent("\(prefix)%02d0001.MP4").path
        let split = try await ProcessRunner.run(
            tool: "ffmpeg",
            ["-v", "error", "-i", clip] + maps + [
                "-c", "copy", "-f", "segment", "-segment_times", seconds.map { String($0) }.joined(separator: ","),
                "-segment_start_number", "1", "-reset_timestamps", "1", "-segment_format", "mp4", pattern,
            ], install: "apt-get install ffmpeg")
        guard split.status == 0 else {
            throw FixtureToolFailed("ffmpeg could not split \(clip): \(split.stderr)")
        }
        return (1...(seconds.count + 1)).map {
            directory.appendingPathComponent(String(format: "\(prefix)%02d0001.MP4", $0)).path
        }
    }

}
