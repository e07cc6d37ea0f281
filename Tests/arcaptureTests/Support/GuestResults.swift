import Foundation

/// What a test VM's guest scenarios left in its /out: per scenario NAME, NAME.out (stdout),
/// NAME.err (stderr) and NAME.rc (exit status), and the files the guest copied there.
protocol GuestResults: Sendable {
    /// The guest's /out, as the host sees it.
    var directory: URL { get }
}

extension GuestResults {
    /// What one scenario printed and its exit status.
    func scenario(_ name: String) throws -> Binary.Result {
        func read(_ suffix: String) throws -> String {
            try String(contentsOf: directory.appendingPathComponent("\(name).\(suffix)"), encoding: .utf8)
        }
        let status = Int32(try read("rc").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        return Binary.Result(status: status, stdout: try read("out"), stderr: try read("err"))
    }

    /// A scenario's `--json` report.
    func report(_ name: String) throws -> CheckDocument {
        try CheckDocument.decode(try scenario(name).stdout)
    }

    /// The bytes of a file the guest wrote.
    func file(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }
}
