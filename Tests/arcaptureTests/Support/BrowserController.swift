import CaptureKit
import Foundation
import TestSupport

@testable import ArcaptureCore

/// Runs the browser test (Tests/Browser/live-view.py: Debian's chromium, headless through
/// chromedriver) against the servers the VM's guest starts, when the guest asks: it writes `ready`
/// to `browser-request` in the shared folder once its server has annotated frames; this opens
/// the page through QEMU's forwarded `port` (clicking a point), and writes `browser-done` when the
/// browser has finished, whatever happened (what it saw is in `browser-report.json`, what went
/// wrong too). Then the same for `browser-center-request`, a server run with `--select-center`
/// (`browser-center-report.json`, `browser-center-done`).
final class BrowserController: Sendable {
    /// The host port QEMU forwards to the guest's 8080.
    let port: UInt16
    private let out: URL
    private let finished = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    /// The point of interest the browser clicks (a buoy ahead of the camera).
    static let pointToSelect = "p2"

    init(port: UInt16, out: URL) {
        self.port = port
        self.out = out
    }

    /// The guest's requests in the order it makes them: the file it writes, the script's mode
    /// arguments, the file this writes when the browser is done.
    private static let rounds = [
        (request: "browser-request", mode: ["click", pointToSelect], done: "browser-done"),
        (request: "browser-center-request", mode: ["center"], done: "browser-center-done"),
    ]

    /// Starts watching for the guest's requests on a thread of its own.
    func start() {
        Thread.detachNewThread { [self] in
            var next = 0
            while next < Self.rounds.count && !finished.withLock({ $0 }) {
                let round = Self.rounds[next]
                if FileManager.default.fileExists(atPath: out.appendingPathComponent(round.request).path) {
                    runBrowser(mode: round.mode, done: round.done)
                    next += 1
                } else {
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
            done.signal()
        }
    }

    /// Stops watching (the VM has ended).
    func finish() {
        finished.withLock { $0 = true }
        done.wait()
    }

    private func runBrowser(mode: [String], done: String) {
        let script = Binary.packageRoot.appendingPathComponent("Tests/Browser/live-view.py")
        let log = out.appendingPathComponent("\(done.replacingOccurrences(of: "done", with: "driver")).log")
        do {
            // Bounded against a hang of chromium itself; each of the script's waits is bounded too.
            let result = try ProcessRunner.runBlocking(
                executable: "/usr/bin/timeout",
                arguments: [
                    "600", "/usr/bin/python3", script.path, "http://127.0.0.1:\(port)/", out.path,
                ] + mode)
            try? Data("status \(result.status)\n\(result.stdout)\n\(result.stderr)".utf8).write(to: log)
        } catch {
            try? Data("could not run \(script.path): \(error)\n".utf8).write(to: log)
        }
        try? Data("done\n".utf8).write(to: out.appendingPathComponent(done))
    }
}
