/// A YAML document as a tree of scalars, sequences and mappings, each with its 1-based line, so
/// errors about a calibration file can say where.
indirect enum YAMLNode: Sendable {
    case scalar(String, line: Int)
    case sequence([YAMLNode], line: Int)
    case mapping([(key: String, value: YAMLNode)], line: Int)

    /// The line the node starts on.
    var line: Int {
        switch self {
        case .scalar(_, let line), .sequence(_, let line), .mapping(_, let line): line
        }
    }

    /// The value for `key`, for a mapping.
    subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs, _) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The scalar's text.
    var text: String? {
        guard case .scalar(let value, _) = self else { return nil }
        return value
    }

    /// A short description of the node's kind and value, for error messages.
    var summary: String {
        switch self {
        case .scalar(let value, _): "'\(value)'"
        case .sequence(let items, _): "a list of \(items.count)"
        case .mapping: "a mapping"
        }
    }
}
