import ArcaptureCore
import Foundation
import JPEGKit

/// One frame of footage, as ``FootageReader`` reads it.
public struct FootageFrame: Sendable {
    /// What the frame holds: a JPEG to decode, or planes already decoded (Y4M, video files).
    public enum Content: Sendable {
        /// A whole JPEG image (an MJPEG stream's frame or a file of a folder).
        case jpeg([UInt8])
        /// YCbCr planes (a Y4M frame, a decoded video frame).
        case planes(YCbCrImage)
    }

    /// The frame's number, from 0, counting every frame the footage holds (one cut short where
    /// the next begins too: it keeps the frames after it at their times).
    public var index: Int
    /// The content.
    public var content: Content
    /// The file it came from (folders), for messages and sidecars.
    public var name: String?
    /// The capture time its EXIF block gives (folders of photos), when it gives one.
    public var captureTime: CaptureTime?
    /// Where the photo was taken, from its EXIF GPS block (folders of geotagged photos).
    public var geotag: Geotag?
    /// A photo's metadata to keep in the JPEG written from it, when its planes came from another
    /// format (a HEIC's EXIF, XMP and colour profile); a JPEG frame's own is read from its bytes.
    public var photoMetadata: PhotoMetadata?
    /// The horizontal field of view a photo's EXIF lens data gives (its 35 mm equivalent focal
    /// length, or its focal length on its sensor's width), in degrees, across the picture as it is
    /// shown; nil for frames that are not photos or whose EXIF says nothing of the lens.
    public var fieldOfView: Double?
    /// When the frame is presented, in seconds from the video's start, as the container says
    /// (video files): frame times follow it, so variable frame rates keep their timing.
    public var presentationTime: Double?
    /// The same in the video stream's own time base, as the file has it (video files): a video
    /// written from this footage keeps it tick for tick.
    public var presentationTimestamp: Int64?
    /// How many packets of the copied streams (audio, telemetry) the reader had met when this
    /// frame came out (video files whose streams are copied: ``FootageReader/copyStreams(into:)``);
    /// the writer puts those before the frame.
    public var streamCopyMark: Int?

    /// Creates a frame.
    public init(
        index: Int, content: Content, name: String? = nil, captureTime: CaptureTime? = nil,
        geotag: Geotag? = nil, presentationTime: Double? = nil
    ) {
        self.index = index
        self.content = content
        self.name = name
        self.captureTime = captureTime
        self.geotag = geotag
        self.presentationTime = presentationTime
    }

    /// Moves the planes out of a Y4M frame (its content becomes an empty JPEG), so that whoever
    /// draws on them holds the only reference and copy-on-write copies nothing; nil for a JPEG.
    public mutating func takePlanes() -> YCbCrImage? {
        guard case .planes(let planes) = content else { return nil }
        content = .jpeg([])
        return planes
    }
}
