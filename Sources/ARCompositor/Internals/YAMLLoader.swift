import ArcaptureCore
internal import CYAML
import Foundation

/// Loads the first YAML document of a text with libyaml (a real parser, not a line splitter:
/// calibration files come from several tools and use flow and block styles, comments and tags).
enum YAMLLoader {
    /// Parses `text`; `file` names it in errors.
    ///
    /// OpenCV writes `%YAML:1.0` as its first line, which is not valid YAML (libyaml rejects the
    /// directive); that one line is dropped before parsing, as OpenCV's own reader does.
    static func load(_ text: String, file: String) throws(InputFileError) -> YAMLNode {
        var source = text
        if source.hasPrefix("%YAML:") {
            source = "#" + source  // keep line numbers: comment the directive out
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw .unreadable(file: file, reason: "libyaml cannot allocate a parser")
        }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(source.utf8)
        var document = yaml_document_t()
        let loaded = bytes.withUnsafeBufferPointer { buffer -> Bool in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return yaml_parser_load(&parser, &document) == 1
        }
        guard loaded else {
            let problem = parser.problem.map { String(cString: $0) } ?? "not valid YAML"
            throw .malformed(file: file, location: "line \(parser.problem_mark.line + 1)", problem: problem)
        }
        defer { yaml_document_delete(&document) }
        guard let root = yaml_document_get_root_node(&document) else {
            throw .malformed(file: file, location: nil, problem: "the file is empty")
        }
        return convert(root, in: &document)
    }

    private static func convert(_ node: UnsafeMutablePointer<yaml_node_t>, in document: inout yaml_document_t)
        -> YAMLNode
    {
        let line = Int(node.pointee.start_mark.line) + 1
        switch node.pointee.type {
        case YAML_SCALAR_NODE:
            let scalar = node.pointee.data.scalar
            let text = String(
                decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
            return .scalar(text, line: line)
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            var item = node.pointee.data.sequence.items.start
            while let current = item, current != node.pointee.data.sequence.items.top {
                if let child = yaml_document_get_node(&document, current.pointee) {
                    items.append(convert(child, in: &document))
                }
                item = current + 1
            }
            return .sequence(items, line: line)
        case YAML_MAPPING_NODE:
            var pairs: [(key: String, value: YAMLNode)] = []
            var pair = node.pointee.data.mapping.pairs.start
            while let current = pair, current != node.pointee.data.mapping.pairs.top {
                if let key = yaml_document_get_node(&document, current.pointee.key),
                    let value = yaml_document_get_node(&document, current.pointee.value),
                    case .scalar(let name, _) = convert(key, in: &document)
                {
                    pairs.append((name, convert(value, in: &document)))
                }
                pair = current + 1
            }
            return .mapping(pairs, line: line)
        default:
            return .scalar("", line: line)
        }
    }
}
