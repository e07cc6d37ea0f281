import GeoAR

/// An `--output` that is a URL (`rtsp://host:8554/live`), which is never a file name.
///
/// Taken for one, `rtsp://127.0.0.1:8554/live` became a folder `rtsp:` in the working directory
/// holding a 32 MB MJPEG file, and the run exited 0 as if it had streamed. arcapture publishes to no
/// media server itself yet, so every URL is refused, with the pipe through ffmpeg that does it.
enum OutputURL {
    /// Refuses `output` when it is a URL: a scheme (a letter, then letters, digits, `+`, `-` or
    /// `.`) followed by `://`, as RFC 3986 spells one.
    ///
    /// - Parameters:
    ///   - output: the `--output` given.
    ///   - streamOptions: the options that write Y4M to stdout for the command (`--output -
    ///     --format y4m`), for the suggested pipe.
    ///   - paced: whether the frames come at the footage's own rate (live capture) or as fast as
    ///     they are drawn (footage), which ffmpeg's `-re` then paces.
    static func refuse(_ output: String, streamOptions: String, paced: Bool) throws(PipelineConfigurationError) {
        guard let scheme = scheme(of: output) else { return }
        let refusal =
            "--output '\(output)' is a URL, not a file: arcapture writes files, stdout (-) and virtual cameras "
            + "(v4l2:/dev/videoN), and publishes to no server itself"
        let muxer: String
        switch scheme {
        case "rtsp", "rtsps": muxer = "rtsp"
        case "rtmp", "rtmps": muxer = "flv"
        case "srt", "udp", "tcp", "rtp": muxer = "mpegts"
        case "file":
            throw PipelineConfigurationError(
                "--output '\(output)' is a URL: give the file's path (\(output.dropFirst("file://".count)))")
        default:
            throw PipelineConfigurationError(
                refusal + "; pipe \(streamOptions) into a program that speaks \(scheme)://")
        }
        throw PipelineConfigurationError(
            refusal + " yet; to send to \(scheme)://, pipe it through ffmpeg: \(streamOptions) | ffmpeg"
                + "\(paced ? "" : " -re") -i - -c:v libx264 -tune zerolatency -f \(muxer) '\(output)'")
    }

    /// The URL scheme `output` starts with, lowercased, or nil when it is no URL.
    static func scheme(of output: String) -> String? {
        guard let separator = output.range(of: "://") else { return nil }
        let scheme = output[..<separator.lowerBound]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
            scheme.unicodeScalars.allSatisfy({
                $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)
            })
        else { return nil }
        return scheme.lowercased()
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
