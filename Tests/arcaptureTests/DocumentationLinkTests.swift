import Foundation
import TestSupport
import Testing

/// The README is a short user's guide and the reference lives in docs/: every link between them
/// (and to the repository's files) must lead somewhere, a `#section` to a heading that is there,
/// so a page moved or a heading renamed fails here rather than on a reader.
@Suite("The README and docs/")
struct DocumentationLinkTests {
    /// README.md and every page in docs/.
    static func pages() throws -> [URL] {
        let docs = PackagePaths.root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
        return [PackagePaths.root.appendingPathComponent("README.md")]
            + names.sorted().map { docs.appendingPathComponent($0) }
    }

    /// The targets of a page's Markdown links `[text](target)`, outside code blocks.
    static func links(in text: String) -> [String] {
        var targets: [String] = []
        var inCode = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inCode.toggle()
                continue
            }
            guard !inCode else { continue }
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                targets.append(String(after[..<close]))
                rest = after[close...]
            }
        }
        return targets
    }

    /// GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                if scalar == " " { return "-" }
                if CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" {
                    return Character(scalar)
                }
                return nil
            })
    }

    /// The anchors of a page's headings.
    static func anchors(of file: URL) throws -> Set<String> {
        let text = try String(contentsOf: file, encoding: .utf8)
        var found: Set<String> = []
        var inCode = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            found.insert(anchor(title))
        }
        return found
    }

    @Test("every link in the README and docs/ leads to a file, and every #section to its heading")
    func linksResolve() throws {
        var broken: [String] = []
        var checked = 0
        for page in try Self.pages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            for target in Self.links(in: text) where !target.contains("://") && !target.hasPrefix("mailto:") {
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let file = path.isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(path)
                guard FileManager.default.fileExists(atPath: file.path) else {
                    broken.append("\(page.lastPathComponent): \(target): no such file")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md", try !Self.anchors(of: file).contains(String(parts[1]))
                {
                    broken.append("\(page.lastPathComponent): \(target): no such heading")
                }
            }
        }
        #expect(checked > 50)
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test("the README is a short guide (at most 300 lines) that links every page in docs/")
    func readmeIsAGuide() throws {
        let pages = try Self.pages()
        let readme = try String(contentsOf: pages[0], encoding: .utf8)
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 300)
        let linked = Set(Self.links(in: readme))
        for page in pages.dropFirst() {
            #expect(
                linked.contains("docs/\(page.lastPathComponent)"), "the README does not link \(page.lastPathComponent)")
        }
    }

    @Test("every figures block in docs/ was written by scripts/record-figures: when, on what, by which command")
    func figuresAreMeasured() throws {
        var blocks = 0
        for page in try Self.pages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            var rest = Substring(text)
            while let open = rest.range(of: "<!-- figures: ") {
                let name = rest[open.upperBound...].prefix { $0 != " " }
                guard let end = rest[open.upperBound...].range(of: "<!-- /figures -->") else {
                    Issue.record("\(page.lastPathComponent): the '\(name)' block has no end")
                    break
                }
                let body = rest[open.upperBound..<end.lowerBound].drop { $0 != "\n" }.dropFirst()
                // "Measured 2026-12-05 on commit abc1234, 2 cores (…), Linux …, by `COMMAND`:" and
                // the output in a code block: what record-figures writes, never a hand's table.
                #expect(
                    body.hasPrefix("Measured ") && body.contains(" on commit ") && body.contains(", by `")
                        && body.contains("```\n"),
                    "\(page.lastPathComponent): the '\(name)' block is not record-figures' output")
                blocks += 1
                rest = rest[end.upperBound...]
            }
        }
        #expect(blocks >= 8)
    }

    @Test("every row of a rows block in docs/ is as a script printed it: its command, date, commit and machine")
    func rowsAreMeasured() throws {
        let root = PackagePaths.root.path
        var rows: [String: [String]] = [:]
        for page in try Self.pages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            var rest = Substring(text)
            while let open = rest.range(of: "<!-- rows: ") {
                let name = String(rest[open.upperBound...].prefix { $0 != " " })
                guard let end = rest[open.upperBound...].range(of: "<!-- /rows -->") else {
                    Issue.record("\(page.lastPathComponent): the '\(name)' rows have no end")
                    break
                }
                let lines = rest[open.upperBound..<end.lowerBound].split(separator: "\n").dropFirst()
                // A header and its rule, then what scripts/lib/reliability-row.sh prints:
                // | WHAT | `bash SCRIPT …` | RUNS | RESULT | 2026-12-06, abc1234, 2 cores (CPU) |
                for line in lines.dropFirst(2) {
                    let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                        .map { $0.trimmingCharacters(in: .whitespaces) }
                    guard cells.count == 5 else {
                        Issue.record("\(page.lastPathComponent): '\(name)': not a printed row: \(line)")
                        continue
                    }
                    let command = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")).split(separator: " ")
                    let script = command.count > 1 ? String(command[1]) : ""
                    #expect(
                        cells[1].hasPrefix("`bash ") && FileManager.default.fileExists(atPath: "\(root)/\(script)"),
                        "\(page.lastPathComponent): '\(cells[0])': no script runs '\(cells[1])'")
                    #expect(
                        cells[4].wholeMatch(
                            of: /\d{4}-\d{2}-\d{2}, [0-9a-f]{7,}( with uncommitted changes)?, \d+ cores \(.+\)/)
                            != nil,
                        "\(page.lastPathComponent): '\(cells[0])': '\(cells[4])' is not when, on what and where")
                    rows[name, default: []].append(cells[0])
                }
                rest = rest[end.upperBound...]
            }
        }
        // (The sanitizer rows' presence and counts are CI's to check, against its own run:
        // scripts/sanitizer-rows --check.)
        #expect((rows["reliability"]?.count ?? 0) >= 4)
        #expect((rows["fuzzing"]?.count ?? 0) >= 20)
    }

    @Test("anchors are made as GitHub makes them")
    func anchors() {
        #expect(Self.anchor("`arcapture capture`") == "arcapture-capture")
        #expect(
            Self.anchor("Splicing: only what the overlay touches is re-encoded")
                == "splicing-only-what-the-overlay-touches-is-re-encoded")
        #expect(
            Self.anchor("Fleets: `--batch`, `--shard` and the recipes in deploy/")
                == "fleets---batch---shard-and-the-recipes-in-deploy")
    }
}
