import ArcaptureCore

/// Decoded frames' planes handed back after use, to be filled again: a Y4M frame is megabytes, and
/// fresh planes for each one (glibc maps blocks that large anew each time) cost a page fault and a
/// zeroed page per 4 KiB of every frame, which ffmpeg's buffer pools avoid too.
///
/// Thread-safe: the writer gives frames back while the reader takes them.
public final class FrameBufferPool: Sendable {
    private let spares = Locked<[YCbCrImage]>([])
    private let limit: Int

    /// Creates a pool keeping at most `limit` spare frames (the rest are freed).
    public init(limit: Int) { self.limit = max(0, limit) }

    /// A frame of this geometry, reused if one is spare (its samples are then last use's), else new.
    public func take(width: Int, height: Int, subsampling: ChromaSubsampling) -> YCbCrImage {
        let spare = spares.withLock { spares -> YCbCrImage? in
            guard
                let index = spares.firstIndex(where: {
                    $0.width == width && $0.height == height && $0.subsampling == subsampling
                })
            else { return nil }
            return spares.remove(at: index)
        }
        return spare ?? YCbCrImage(width: width, height: height, subsampling: subsampling)
    }

    /// Hands a frame back once nothing else uses it.
    public func give(_ image: consuming YCbCrImage) {
        let image = image
        spares.withLock { spares in
            if spares.count < limit { spares.append(image) }
        }
    }
}
