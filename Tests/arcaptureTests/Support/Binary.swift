import Foundation
import TestSupport

/// Runs the freshly built `arcapture` binary as a user would, capturing its output and status.
enum Binary {
    /// The directory holding the built products (the test bundle's own directory).
    static var productsDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["ARCAPTURE_PRODUCTS"] {
            return URL(fileURLWithPath: override)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The built `arcapture` executable.
    static var path: String { productsDirectory.appendingPathComponent("arcapture").path }

    /// The package's root directory.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// What a run printed and how it ended.
    typealias Result = ProcessRunner.Result

    /// Runs `arcapture` with `arguments` and waits for it, off the cooperative pool.
    static func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> Result {
        try await ProcessRunner.run(executable: path, arguments: arguments, environment: environment)
    }

    /// ``run(_:environment:)`` on the calling thread, for code on a thread of its own already.
    static func runBlocking(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        try ProcessRunner.runBlocking(executable: path, arguments: arguments, environment: environment)
    }

    /// Runs any executable and waits for it, off the cooperative pool.
    static func run(executable: String, arguments: [String]) async throws -> Result {
        try await ProcessRunner.run(executable: executable, arguments: arguments)
    }

    /// ``run(executable:arguments:)`` on the calling thread, for code on a thread of its own already.
    static func runBlocking(executable: String, arguments: [String]) throws -> Result {
        try ProcessRunner.runBlocking(executable: executable, arguments: arguments)
    }
}
