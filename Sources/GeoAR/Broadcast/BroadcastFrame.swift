import Foundation

/// One annotated frame as every client of a ``FrameBroadcast`` receives it: the JPEG, and the
/// same JPEG framed as a part of a `multipart/x-mixed-replace` stream, built once and shared by
/// every client (never copied per client).
public final class BroadcastFrame: Sendable {
    /// Its number, from 1, in the order frames were published (placeholders included).
    public let sequence: UInt64
    /// When it was captured, for `X-Timestamp` (seconds since 1970, as µStreamer sends it).
    public let capturedAt: Date
    /// The JPEG.
    public let jpeg: [UInt8]
    /// Whether it is a placeholder saying why no camera frame comes.
    public let isPlaceholder: Bool
    /// When it was published (monotonic), for the time to each client's last byte.
    package let publishedAt = ContinuousClock.now
    /// The multipart part: boundary line, headers, the JPEG and its trailing CRLF.
    package let part: [UInt8]

    /// The boundary between parts of `/stream`.
    package static let boundary = "arcaptureframe"

    init(sequence: UInt64, capturedAt: Date, jpeg: [UInt8], isPlaceholder: Bool = false) {
        self.sequence = sequence
        self.isPlaceholder = isPlaceholder
        self.capturedAt = capturedAt
        self.jpeg = jpeg
        let header =
            "--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n"
            + "X-Timestamp: \(Self.timestamp(capturedAt))\r\n\r\n"
        var part = Array(header.utf8)
        part.reserveCapacity(part.count + jpeg.count + 2)
        part += jpeg
        part += [13, 10]
        self.part = part
    }

    /// `1764639607.123456`: seconds since 1970 with microseconds.
    package static func timestamp(_ date: Date) -> String {
        String(format: "%.6f", date.timeIntervalSince1970)
    }
}
