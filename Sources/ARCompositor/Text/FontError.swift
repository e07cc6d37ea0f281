/// A font that cannot be used.
public struct FontError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was asked for: a font name or a file.
    public var font: String
    /// What went wrong.
    public var problem: String
    /// Whether the font is missing (a file that does not exist, or no font at all), as opposed to
    /// there but unusable (a file that is not a font): exit status 66 rather than 65.
    public var isMissing: Bool

    /// Creates an error.
    public init(font: String, problem: String, isMissing: Bool = false) {
        self.font = font
        self.problem = problem
        self.isMissing = isMissing
    }

    /// `font 'Foo': no font file found (fontconfig)`.
    public var description: String { "font '\(font)': \(problem)" }
}
