import CaptureKit
import Foundation
import TestSupport

@testable import ArcaptureCore

/// Stops and starts the host's gpsd when the VM's guest asks, for the live annotation scenario:
/// the guest writes `stop` or `start` to `gpsd-request` in the shared folder, and this answers in
/// `gpsd-state` (`stop-done`, `start-done`) once gpsd has gone, or accepts connections again on the
/// same port.
final class GPSDController: Sendable {
    private let log: String
    private let out: URL
    private let current: Locked<GPSFake?>
    private let finished = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    init(gpsd: GPSFake, log: String, out: URL) {
        self.log = log
        self.out = out
        current = Locked(gpsd)
    }

    /// Starts watching for requests on a thread of its own.
    func start() {
        let port = current.withLock { $0?.port } ?? 0
        Thread.detachNewThread { [self] in
            var handled = ""
            while !finished.withLock({ $0 }) {
                let request =
                    (try? String(contentsOf: out.appendingPathComponent("gpsd-request"), encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                if !request.isEmpty && request != handled {
                    handled = request
                    if request == "stop" {
                        current.withLock { $0 }?.stop()
                    } else if request == "start" {
                        let restarted = try? GPSFake(log: log, port: port)
                        current.withLock { $0 = restarted }
                    }
                    try? Data("\(request)-done\n".utf8).write(to: out.appendingPathComponent("gpsd-state"))
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            done.signal()
        }
    }

    /// Stops watching and stops gpsd.
    func finish() {
        finished.withLock { $0 = true }
        done.wait()
        current.withLock { $0 }?.stop()
    }
}
