import Foundation
import Testing

/// Runs a program and collects what it printed, for tests that run the built binary or check
/// results with independent tools.
///
/// Both pipes are read to the end concurrently: reading one after the other deadlocks once the
/// program fills the other pipe's buffer (64 KiB).
public enum ProcessRunner {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything printed on stdout.
        public var stdout: String
        /// Everything printed on stderr.
        public var stderr: String

        /// Creates a result.
        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// A program that is not installed; tests fail with the command that installs it, never skip.
    public struct Missing: Error, CustomStringConvertible {
        /// The program's name.
        public let tool: String
        /// The command that installs it.
        public let install: String
        /// `'ffmpeg' is not installed; run '…'`.
        public var description: String { "'\(tool)' is not installed; run '\(install)'" }
    }

    /// Runs `executable` with `arguments` (and extra `environment` variables) and waits for it;
    /// its stdin is `input` (a file piped in) or empty.
    public static func run(
        executable: String, arguments: [String], environment: [String: String]? = nil, input: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        Thread.detachNewThread {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs a program found on PATH.
    ///
    /// - Throws: ``Missing`` naming `install` when the program is not on PATH.
    public static func run(tool: String, _ arguments: [String], install: String, input: URL? = nil) throws -> Result {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let executable = paths.map({ "\($0)/\(tool)" }).first(where: FileManager.default.isExecutableFile) else {
            throw Missing(tool: tool, install: install)
        }
        return try run(executable: executable, arguments: arguments, input: input)
    }

    /// Runs a program found on PATH that must succeed (a reference tool making or reading a
    /// file), and gives its standard output; a failure is recorded with its standard error.
    ///
    /// - Throws: ``Missing`` naming `apt-get install package` when the program is not on PATH.
    public static func output(tool: String, _ arguments: [String], package: String) throws -> String {
        let result = try run(tool: tool, arguments, install: "apt-get install \(package)")
        #expect(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
        return result.stdout
    }
}
