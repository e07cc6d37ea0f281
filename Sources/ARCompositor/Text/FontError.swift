/// A font that cannot be used.
public struct FontError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was asked for: a font name or a file.
    public var font: String
    /// What went wrong.
    public var problem: String

    /// `font 'Foo': no font file found (fontconfig)`.
    public var description: String { "font '\(font)': \(problem)" }
}
