/// A script some labels are written in that no installed font draws: those characters show as
/// empty boxes. Found before the first frame (``Compositor/uncoveredScripts(in:)``) and said once
/// per run, with the package that covers it.
public struct UncoveredScript: Sendable, Equatable {
    /// The script's English name ("Thai", "Hangul", "emoji").
    public let script: String
    /// The first label that needs it.
    public let example: String
    /// How many labels need it.
    public let labels: Int
    /// The Debian package with a font for it.
    public let package: String

    /// Creates a report.
    public init(script: String, example: String, labels: Int, package: String) {
        self.script = script
        self.example = example
        self.labels = labels
        self.package = package
    }

    /// The warning for the user: the script, the label, the fix.
    public var warning: String {
        let others = labels > 1 ? " and \(labels - 1) other label\(labels == 2 ? "" : "s")" : ""
        return "no installed font draws \(script): '\(example)'\(others) will show empty boxes for it "
            + "(install \(package), or give the style a font that covers \(script))"
    }
}
