/// One line of CSV split into its fields, as RFC 4180 has them: commas between fields, a field in
/// double quotes may hold commas, and `""` inside one is a quote.
///
/// Hand-written: Foundation has no CSV reader, and a manifest's lines are this much of the format
/// (no field spans lines).
enum CSVLine {
    /// What is wrong with a line.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The fields of `line`, or what is wrong with it.
    static func fields(_ line: String) -> Result<[String], Problem> {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var wasQuoted = false
        var characters = Array(line)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        field.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
            } else if character == "," {
                fields.append(field)
                field = ""
                wasQuoted = false
            } else if character == "\"" {
                guard field.allSatisfy(\.isWhitespace), !wasQuoted else {
                    return .failure(
                        Problem(description: "a quote inside an unquoted field (field \(fields.count + 1))"))
                }
                field = ""
                quoted = true
                wasQuoted = true
            } else {
                if wasQuoted && !character.isWhitespace {
                    return .failure(
                        Problem(description: "text after a quoted field's closing quote (field \(fields.count + 1))"))
                }
                field.append(character)
            }
        }
        guard !quoted else { return .failure(Problem(description: "a quoted field is not closed")) }
        fields.append(field)
        return .success(fields)
    }
}
