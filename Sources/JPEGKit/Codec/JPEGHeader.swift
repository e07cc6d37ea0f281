import ArcaptureCore

/// What a JPEG's header says about its image.
public struct JPEGHeader: Hashable, Sendable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The chroma layout of the coded image.
    public var subsampling: ChromaSubsampling

    /// Creates a header record.
    public init(width: Int, height: Int, subsampling: ChromaSubsampling) {
        self.width = width
        self.height = height
        self.subsampling = subsampling
    }
}
