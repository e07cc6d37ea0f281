import Foundation

/// When a frame or a photo was taken according to the footage's own metadata (a JPEG's EXIF, a
/// video's GPS clock or container), and where that came from.
public struct CaptureTime: Hashable, Sendable {
    /// The instant.
    public var date: Date
    /// Where it came from, and so whether its zone was stated or assumed.
    public var source: CaptureTimeSource

    /// A capture time.
    public init(date: Date, source: CaptureTimeSource) {
        self.date = date
        self.source = source
    }
}
