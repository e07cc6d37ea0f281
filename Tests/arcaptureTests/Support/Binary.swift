import Foundation

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
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `arcapture` with `arguments` and waits for it.
    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Result {
        try run(executable: path, arguments: arguments, environment: environment)
    }

    /// Runs any executable and waits for it, reading both pipes to the end concurrently.
    static func run(executable: String, arguments: [String], environment: [String: String]? = nil) throws -> Result {
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
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
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

    /// Parses a JSON document printed by the binary.
    static func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        guard let dictionary = object as? [String: Any] else { throw NotAnObject(text: text) }
        return dictionary
    }

    struct NotAnObject: Error { let text: String }
}
