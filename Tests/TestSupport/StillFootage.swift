import Foundation

/// Footage made from one still, for tests whose subject is the track, not the pictures: a short
/// MJPEG stream of the Lund sample frame, and the records of the sidecar annotate writes for it.
public enum StillFootage {
    /// Writes `frames` copies of `samples/frames/lund-640x480.jpg` as an MJPEG stream in
    /// `directory` and returns its path.
    ///
    /// - Throws: ``FixtureToolFailed`` with what ffmpeg said when it fails.
    public static func mjpeg(frames: Int, in directory: URL) async throws -> String {
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        let made = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-loop", "1", "-i", PackagePaths.sample("frames/lund-640x480.jpg"), "-frames:v",
                String(frames), "-f", "mjpeg", clip,
            ], install: "apt-get install ffmpeg")
        guard made.status == 0 else { throw FixtureToolFailed("ffmpeg made no clip: \(made.stderr)") }
        return clip
    }

    /// The first record of the JSON-lines sidecar at `path` (`annotate --sidecar`), nil when it has
    /// none or it is not a JSON object.
    public static func firstRecord(ofSidecar path: String) throws -> [String: Any]? {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first.flatMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
