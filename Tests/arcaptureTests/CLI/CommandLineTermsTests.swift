import Foundation
import TestSupport
import Testing

@testable import ArcaptureCLI

/// The libraries never name a command-line option or subcommand; the CLI says them in their place
/// (``CommandLineTerms``). Both halves are held here: no library string literal names one of
/// arcapture's options or subcommands, and every phrase the CLI translates is one a library
/// writes, so rewording a library message cannot silently drop the option the user needs.
@Suite("Library messages in library terms")
struct CommandLineTermsTests {
    static let libraries = [
        "ArcaptureCore", "Positioning", "JPEGKit", "Footage", "CaptureKit", "ARCompositor", "GeoAR", "LiveViewHTTP",
    ]
    /// Outside programs a message may tell the user to run, with their own options.
    static let outsideTools = ["docker", "udevadm", "v4l2-ctl", "modprobe", "ffmpeg", "ffprobe"]

    /// Every Swift source of the library modules: its path and text.
    static func librarySources() throws -> [(String, String)] {
        try libraries.flatMap { module in
            let folder = PackagePaths.root.appendingPathComponent("Sources/\(module)")
            let files = (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects ?? [])
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            return try files.map { ("\(module)/\($0.lastPathComponent)", try String(contentsOf: $0, encoding: .utf8)) }
        }
    }

    /// The string literals of `source`, outside comments.
    static func literals(_ source: String) -> [String] {
        source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            .flatMap { line in line.matches(of: /"((?:[^"\\]|\\.)*)"/).map { String($0.1) } }
    }

    @Test("no library string literal names one of arcapture's options or subcommands")
    func noFlagsInLibraries() throws {
        let options = Set(Arcapture.commands.flatMap { $0.spec.options.map(\.name) })
        let subcommands = Arcapture.commands.map(\.spec.name)
        #expect(options.contains("fps") && options.contains("output") && subcommands.contains("devices"))
        var found: [String] = []
        for (file, text) in try Self.librarySources() {
            for literal in Self.literals(text) where !Self.outsideTools.contains(where: { literal.contains($0) }) {
                for match in literal.matches(of: /--([a-z][a-z0-9-]*)/) where options.contains(String(match.1)) {
                    found.append("\(file): --\(match.1) in \"\(literal)\"")
                }
                for command in subcommands where literal.contains("arcapture \(command)") {
                    found.append("\(file): 'arcapture \(command)' in \"\(literal)\"")
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("each phrase the CLI translates is written by a library, and comes out with its option")
    func phrasesExist() throws {
        let literals = try Self.librarySources().flatMap { Self.literals($0.1) }.joined(separator: "\n")
        for (library, commandLine) in CommandLineTerms.phrases {
            #expect(literals.contains(library), "no library writes \"\(library)\" any more")
            #expect(CommandLineTerms.translate("x \(library) y") == "x \(commandLine) y")
        }
        #expect(
            CommandLineTerms.translate(
                "cannot open '/dev/video9': no such device (is the camera connected? device discovery lists the cameras found)"
            )
                == "cannot open '/dev/video9': no such device (is the camera connected? 'arcapture devices' lists the cameras found)"
        )
    }
}
