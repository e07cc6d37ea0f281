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

/// ``waitUntil(seconds:_:)`` for async tests: polls every 20 ms, suspending between polls rather
/// than blocking, so a task the condition waits for can run on the cooperative pool meanwhile
/// (blocking would hold one of its threads: two on this machine).
public func eventually(seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
