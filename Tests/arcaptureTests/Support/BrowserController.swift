import CaptureKit
import Foundation
import TestSupport

/// Runs the browser test (Tests/Browser/live-view.py: Debian's chromium, headless through
/// chromedriver) against the server the VM's guest starts, when the guest asks: it writes `ready`
/// to `browser-request` in the shared folder once its server has annotated frames; this opens
/// the page through QEMU's forwarded `port`, and writes `browser-done` when the browser has
/// finished, whatever happened (what it saw is in `browser-report.json`, what went wrong too).
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

    /// Starts watching for the guest's request on a thread of its own.
    func start() {
        Thread.detachNewThread { [self] in
            let request = out.appendingPathComponent("browser-request")
            while !finished.withLock({ $0 }) {
                if FileManager.default.fileExists(atPath: request.path) {
                    runBrowser()
                    break
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            done.signal()
        }
    }

    /// Stops watching (the VM has ended).
    func finish() {
        finished.withLock { $0 = true }
        done.wait()
    }

    private func runBrowser() {
        let script = Binary.packageRoot.appendingPathComponent("Tests/Browser/live-view.py")
        let log = out.appendingPathComponent("browser-driver.log")
        do {
            // Bounded against a hang of chromium itself; each of the script's waits is bounded too.
            let result = try ProcessRunner.run(
                executable: "/usr/bin/timeout",
                arguments: [
                    "600", "/usr/bin/python3", script.path, "http://127.0.0.1:\(port)/", out.path, Self.pointToSelect,
                ])
            try? Data("status \(result.status)\n\(result.stdout)\n\(result.stderr)".utf8).write(to: log)
        } catch {
            try? Data("could not run \(script.path): \(error)\n".utf8).write(to: log)
        }
        try? Data("done\n".utf8).write(to: out.appendingPathComponent("browser-done"))
    }
}
