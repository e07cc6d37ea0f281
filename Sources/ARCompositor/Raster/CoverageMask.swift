/// A small coverage bitmap (0 = outside … 255 = fully inside): a rendered glyph, or a shape
/// rasterised once and stamped many times (marker dots, label plates).
public struct CoverageMask: Hashable, Sendable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int
    /// `width × height` coverage values, row by row.
    public var values: [UInt8]

    /// Creates a mask.
    ///
    /// - Precondition: `values` has `width × height` entries.
    public init(width: Int, height: Int, values: [UInt8]) {
        precondition(values.count == width * height, "a mask needs width × height values")
        self.width = width
        self.height = height
        self.values = values
    }
}
