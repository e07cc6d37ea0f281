/// A banner template that cannot be used: what is wrong and where.
public struct BannerTemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The template.
    public var template: String
    /// What is wrong.
    public var problem: String
    /// The character position of the problem (from 0).
    public var offset: Int

    /// Creates an error.
    public init(template: String, problem: String, offset: Int) {
        self.template = template
        self.problem = problem
        self.offset = offset
    }

    /// `banner template, character 12: unknown token {foo} (known: …)`.
    public var description: String { "banner template, character \(offset + 1): \(problem)" }
}
