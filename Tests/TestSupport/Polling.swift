import Foundation

/// Polls `condition` every 20 ms until it holds or `seconds` pass, and says whether it held: how a
/// test waits for something a program does (a file written, a line printed) instead of sleeping a
/// fixed time and hoping. The bound is for a hang, not a measure of speed: make it generous.
public func waitUntil(seconds: Double = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}
