import Foundation

/// A video whose GPS is in a subtitle track, as Yuneec drones write it (`Lat:… Lon:… Alt:… m` in
/// each 1 s cue, tx3g in MP4): a format arcapture does not read itself and ExifTool does, made by
/// the ffmpeg program from positions the test chooses. No such clip is available under a licence
/// the project may use.
public enum SubtitleGPSVideo {
    /// A position of the drone: degrees, and metres above sea level.
    public typealias Position = (latitude: Double, longitude: Double, altitude: Double)

    /// Positions 11 m apart going north-east from the GoPro clip's place, one a second.
    public static func positions(_ count: Int) -> [Position] {
        (0..<count).map { index -> Position in
            let step = Double(index)
            return (latitude: 33.12677 + step * 0.0001, longitude: -117.3273436 + step * 0.0001, altitude: 15.5 + step)
        }
    }

    /// Writes a 64x64 clip at 1 fps to `path` with one cue a second holding each of `positions`.
    public static func make(_ path: String, positions: [Position]) async throws {
        let subtitles = path + ".cues.srt"
        defer { try? FileManager.default.removeItem(atPath: subtitles) }
        let cues = positions.enumerated().map { index, position in
            String(
                format: "%d\n00:00:%02d,000 --> 00:00:%02d,000\nLat:%.7f Lon:%.7f Alt:%.1f m Yaw:0 Pitch:0 Roll:0\n",
                index + 1, index, index + 1, position.latitude, position.longitude, position.altitude)
        }
        try cues.joined(separator: "\n").write(toFile: subtitles, atomically: true, encoding: .utf8)
        let made = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=1:duration=\(positions.count)", "-i",
                subtitles, "-map", "0:v", "-map", "1:s", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:s", "mov_text",
                "-y", path,
            ], install: "apt-get install ffmpeg")
        guard made.status == 0 else { throw FixtureToolFailed("ffmpeg: \(made.stderr)") }
    }
}
