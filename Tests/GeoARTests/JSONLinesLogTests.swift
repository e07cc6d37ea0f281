import Foundation
import TestSupport
import Testing

@testable import GeoAR

/// A `--json-log` or live sidecar opened again (a time-lapse restarted, a service restarted) keeps
/// every line the last run wrote.
@Suite("JSON-lines logs are appended to, never cut")
struct JSONLinesLogTests {
    @Test("a log opened again keeps the last run's lines and adds its own after them")
    func reopened() throws {
        let directory = try PackagePaths.temporaryDirectory("json-log")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("logs/run.jsonl").path
        do {
            let first = try JSONLinesLog(path: path)
            try first.append(["event": "frame", "frame": 1])
            try first.append(["event": "frame", "frame": 2])
            first.close()
        }
        let second = try JSONLinesLog(path: path)
        try second.append(["event": "frame", "frame": 1])
        second.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(
            lines == [
                #"{"event":"frame","frame":1}"#, #"{"event":"frame","frame":2}"#, #"{"event":"frame","frame":1}"#,
            ])
    }

    @Test("a last line cut short (a power cut mid-write) is ended, and the next record has a line of its own")
    func cutLine() throws {
        let directory = try PackagePaths.temporaryDirectory("json-log-cut")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("run.jsonl").path
        let before = #"{"event":"frame","frame":1}"# + "\n" + #"{"event":"fr"#
        try Data(before.utf8).write(to: URL(fileURLWithPath: path))
        let log = try JSONLinesLog(path: path)
        try log.append(["event": "resumed"])
        log.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines == [#"{"event":"frame","frame":1}"#, #"{"event":"fr"#, #"{"event":"resumed"}"#, ""])
    }
}
