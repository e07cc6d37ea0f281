import Foundation
import TestSupport
import Testing

@testable import ArcaptureCLI

/// What a package installs besides the binary, made by the binary from its commands' specs: the
/// manual page (rendered by groff, as man does) and bash, zsh and fish completion (each loaded
/// into its own shell and asked for completions as a user pressing Tab would), and the systemd
/// unit (checked by systemd-analyze).
@Suite("Manual, completion and the systemd unit")
struct PackagingTests {
    private func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("packaging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func generated(_ arguments: [String], to file: URL) async throws {
        let run = try await Binary.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        try Data(run.stdout.utf8).write(to: file)
    }

    @Test("the manual page renders without a warning and lists every subcommand and option")
    func manual() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("arcapture.1")
        try await generated(["--generate-manual"], to: page)
        let lint = try await ProcessRunner.run(
            tool: "groff", ["-man", "-ww", "-z", page.path], install: "apt-get install groff-base")
        #expect(lint.status == 0)
        #expect(lint.stderr.isEmpty, "groff's warnings: \(lint.stderr)")
        let rendered = try await ProcessRunner.run(
            tool: "groff", ["-man", "-Tascii", "-P-cbou", page.path], install: "apt-get install groff-base")
        #expect(rendered.stdout.contains("ARCAPTURE(1)"))
        for command in Arcapture.commands.map(\.spec) {
            #expect(rendered.stdout.contains("arcapture \(command.name)"), "\(command.name)")
            for option in command.allOptions {
                #expect(rendered.stdout.contains("--\(option.name)"), "\(command.name) --\(option.name)")
            }
        }
        #expect(rendered.stdout.contains("127.0.0.1:8080"), "defaults are shown")
        let fixed = try await Binary.run(["--generate-manual"], environment: ["SOURCE_DATE_EPOCH": "1764633600"])
        #expect(fixed.stdout.contains(#".TH ARCAPTURE 1 "2025-12-02""#), "a reproducible date")
    }

    @Test("bash completes subcommands, options, cameras and files")
    func bash() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("arcapture.bash")
        try await generated(["--generate-completion-script", "bash"], to: script)
        try Data().write(to: folder.appendingPathComponent("pois.geojson"))
        func complete(_ words: [String]) async throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let run = try await ProcessRunner.run(
                executable: "/bin/bash",
                arguments: [
                    "-c",
                    "cd '\(folder.path)' && source '\(script.path)' && COMP_WORDS=(\(quoted)) && "
                        + "COMP_CWORD=\(words.count - 1) && _arcapture && printf '%s\\n' \"${COMPREPLY[@]}\"",
                ])
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map(String.init)
        }
        await #expect(try complete(["arcapture", "se"]) == ["serve"])
        await #expect(try complete(["arcapture", "serve", "--li"]) == ["--listen", "--libv4l2"])
        await #expect(
            try complete(["arcapture", "serve", "--idle"]).sorted() == ["--idle-slowdown", "--idle-timeout"])
        await #expect(
            try complete(["arcapture", "serve", "--pois", "po"]) == ["pois.geojson"], "a file for a FILE value")
        await #expect(try complete(["arcapture", "serve", "--listen", ""]).isEmpty, "nothing to offer for ADDR:PORT")
        await #expect(try complete(["arcapture", "help", "ann"]) == ["annotate"])
        let everyOption = try await complete(["arcapture", "capture", "--"])
        for option in CaptureCommand.spec.allOptions { #expect(everyOption.contains("--\(option.name)")) }
    }

    @Test("fish completes subcommands and options; zsh's script parses")
    func fishAndZsh() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fish = folder.appendingPathComponent("arcapture.fish")
        try await generated(["--generate-completion-script", "fish"], to: fish)
        func complete(_ line: String) async throws -> [String] {
            let run = try await ProcessRunner.run(
                tool: "fish", ["--no-config", "-c", "source '\(fish.path)'; complete -C '\(line)'"],
                install: "apt-get install fish")
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        await #expect(try complete("arcapture ser") == ["serve"])
        await #expect(try complete("arcapture serve --lis") == ["--listen"])
        await #expect(try complete("arcapture check --fr") == ["--frames"])
        let zsh = folder.appendingPathComponent("_arcapture")
        try await generated(["--generate-completion-script", "zsh"], to: zsh)
        let parsed = try await ProcessRunner.run(tool: "zsh", ["-n", zsh.path], install: "apt-get install zsh")
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let text = try String(contentsOf: zsh, encoding: .utf8)
        #expect(text.hasPrefix("#compdef arcapture"))
        for option in ServeCommand.spec.allOptions { #expect(text.contains("--\(option.name)[")) }
        let wrong = try await Binary.run(["--generate-completion-script", "tcsh"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("bash, zsh or fish, not 'tcsh'"))
    }

    @Test("the systemd unit passes systemd-analyze verify, the manual page it names found")
    func systemdUnit() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The unit as shipped, with the binary at the build's path instead of /usr/bin's.
        let shipped = try String(
            contentsOf: Binary.packageRoot.appendingPathComponent("packaging/arcapture-serve@.service"), encoding: .utf8
        )
        #expect(shipped.contains("ExecStart=/usr/bin/arcapture serve --device /%I"))
        #expect(shipped.contains("DynamicUser=yes"))
        #expect(shipped.contains("SupplementaryGroups=video"))
        #expect(shipped.contains("Restart=on-failure"))
        let unit = folder.appendingPathComponent("arcapture-serve@.service")
        try Data(shipped.replacingOccurrences(of: "/usr/bin/arcapture", with: Binary.path).utf8).write(to: unit)
        let manuals = folder.appendingPathComponent("man/man1")
        try FileManager.default.createDirectory(at: manuals, withIntermediateDirectories: true)
        try await generated(["--generate-manual"], to: manuals.appendingPathComponent("arcapture.1"))
        // An instance of the template in the current folder, as `systemctl start` would name it.
        let instance = "arcapture-serve@dev-video0.service"
        let verify = try await ProcessRunner.run(
            executable: "/usr/bin/env",
            arguments: [
                "MANPATH=\(folder.appendingPathComponent("man").path)", "sh", "-c",
                "cd '\(folder.path)' && command -v systemd-analyze >/dev/null || exit 127; "
                    + "systemd-analyze verify '\(instance)'",
            ])
        #expect(verify.status != 127, "systemd-analyze is missing: apt-get install systemd")
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stderr.isEmpty, "\(verify.stderr)")
    }
}
