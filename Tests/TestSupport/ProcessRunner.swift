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

    /// Runs `executable` with `arguments` (and extra `environment` variables) and waits for it,
    /// on a thread of its own (``OffPool``): a test waiting for a program never holds one of
    /// Swift's cooperative threads, of which this machine has two. At most one program per core
    /// runs at once (``ProgramSlots``); the others wait their turn. Its stdin is `input` (a file
    /// piped in) or empty. A program still running after `timeout` is killed and the test records
    /// an issue saying so (a hang fails where it happens, not at CI's limit).
    public static func run(
        executable: String, arguments: [String], environment: [String: String]? = nil, input: URL? = nil,
        timeout: Duration = Self.timeout
    ) async throws -> Result {
        await ProgramSlots.shared.acquire()
        defer { ProgramSlots.shared.release() }
        let (result, timedOut) = try await OffPool.run {
            try execute(
                executable: executable, arguments: arguments, environment: environment, input: input, timeout: timeout)
        }
        // Recorded here, in the test's own task: an issue recorded on the runner's thread would
        // not name the test.
        if timedOut { recordKilled(executable, arguments, after: timeout) }
        return result
    }

    /// The longest any program a test runs may take: 30 minutes (the VM's boots with their
    /// scenarios are the longest, bounded by their own timeouts well within it).
    public static let timeout: Duration = .seconds(1800)

    /// ``run(executable:arguments:environment:input:timeout:)`` on the calling thread, for code
    /// that is on a thread of its own already (inside ``OffPool/run(_:)``, a reader thread);
    /// never from a test's own body.
    public static func runBlocking(
        executable: String, arguments: [String], environment: [String: String]? = nil, input: URL? = nil,
        timeout: Duration = Self.timeout
    ) throws -> Result {
        let (result, timedOut) = try execute(
            executable: executable, arguments: arguments, environment: environment, input: input, timeout: timeout)
        if timedOut { recordKilled(executable, arguments, after: timeout) }
        return result
    }

    /// The issue a program killed at its timeout records.
    private static func recordKilled(_ executable: String, _ arguments: [String], after timeout: Duration) {
        Issue.record("\(executable) \(arguments.joined(separator: " ")) still ran after \(timeout): killed")
    }

    /// Runs the program to its end (or kills it at `timeout`), saying whether it was killed.
    private static func execute(
        executable: String, arguments: [String], environment: [String: String]?, input: URL?, timeout: Duration
    ) throws -> (Result, timedOut: Bool) {
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
        let standardInput = try input.map { try FileHandle(forReadingFrom: $0) }
        process.standardInput = standardInput ?? FileHandle.nullDevice
        // Every descriptor closed on the way out, whatever happens: a cancelled watchdog stays
        // queued until its deadline, and anything it kept alive kept its pipes open with it
        // (1,300 pipes by the end of the CLI suite, which tipped Foundation's Process.run into
        // reading past /proc/self/fd's buffer under AddressSanitizer: swift-corelibs-foundation
        // #5472).
        defer {
            try? out.fileHandleForReading.close()
            try? err.fileHandleForReading.close()
            try? standardInput?.close()
        }
        try process.run()
        // The watchdog: kills a program that outlives `timeout` (its pipes then close, and the
        // reads below end). It holds the process weakly, so a cancelled one keeps nothing alive.
        let killed = NSLock()
        nonisolated(unsafe) var timedOut = false
        let watchdog = DispatchWorkItem { [weak process] in
            guard let process, process.isRunning else { return }
            killed.withLock { timedOut = true }
            kill(process.processIdentifier, SIGKILL)
        }
        let (seconds, attoseconds) = timeout.components
        DispatchQueue.global().asyncAfter(
            deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18, execute: watchdog)
        defer { watchdog.cancel() }
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
        let result = Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
        return (result, killed.withLock { timedOut })
    }

    /// Runs a program found on PATH, off the cooperative pool as
    /// ``run(executable:arguments:environment:input:timeout:)`` does.
    ///
    /// - Throws: ``Missing`` naming `install` when the program is not on PATH.
    public static func run(tool: String, _ arguments: [String], install: String, input: URL? = nil) async throws
        -> Result
    {
        try await run(executable: try executable(of: tool, install: install), arguments: arguments, input: input)
    }

    /// Where `tool` is on PATH.
    ///
    /// - Throws: ``Missing`` naming `install` when it is not there.
    private static func executable(of tool: String, install: String) throws -> String {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let executable = paths.map({ "\($0)/\(tool)" }).first(where: FileManager.default.isExecutableFile) else {
            throw Missing(tool: tool, install: install)
        }
        return executable
    }

    /// ``run(tool:_:install:input:)`` on the calling thread (see ``runBlocking(executable:arguments:environment:input:timeout:)``).
    ///
    /// - Throws: ``Missing`` naming `install` when the program is not on PATH.
    public static func runBlocking(tool: String, _ arguments: [String], install: String, input: URL? = nil) throws
        -> Result
    {
        try runBlocking(executable: try executable(of: tool, install: install), arguments: arguments, input: input)
    }

    /// Runs a program found on PATH that must succeed (a reference tool making or reading a
    /// file), and gives its standard output; a failure is recorded with its standard error.
    ///
    /// - Throws: ``Missing`` naming `apt-get install package` when the program is not on PATH.
    public static func output(tool: String, _ arguments: [String], package: String) async throws -> String {
        let result = try await run(tool: tool, arguments, install: "apt-get install \(package)")
        #expect(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
        return result.stdout
    }
}
