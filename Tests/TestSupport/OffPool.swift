import Foundation

/// Blocking work (a program run to its end, a cluster started) done on a thread of its own, awaited
/// without holding one of Swift's cooperative threads: this machine has two, and a test that held
/// one for 40 s (the Slurm job array) beside another starved an async test into its time limit.
public enum OffPool {
    /// Runs `body` on a new thread and returns what it returns (or throws what it throws).
    public static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// ``waitUntil(seconds:_:)`` on a thread of its own: the test's task waits for `condition`
    /// without holding one of the pool's threads.
    public static func wait(seconds: Double = 60, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
        (try? await run { waitUntil(seconds: seconds, condition) }) ?? false
    }
}
