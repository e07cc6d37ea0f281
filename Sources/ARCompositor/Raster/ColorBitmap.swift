/// A small picture in colour with alpha: sRGB, premultiplied (each of red, green and blue at most
/// its alpha), four bytes a pixel, row by row. Colour glyphs (emoji) are drawn from it.
public struct ColorBitmap: Hashable, Sendable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha.
    public var rgba: [UInt8]

    /// Creates a bitmap.
    ///
    /// - Precondition: `rgba` has `width × height × 4` bytes.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4, "a colour bitmap needs width × height × 4 bytes")
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}
