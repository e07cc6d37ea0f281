import Foundation

/// A value behind a pthread mutex (`NSLock`), for the scripted camera's state.
///
/// Not `Synchronization.Mutex`, as the rest of the project uses: on Linux that is a futex the
/// thread sanitizer cannot see, so the test that emits a frame and the session that dequeues it
/// looked like a race to `swift test --sanitize=thread` (which CI runs on the GeoAR suite), though
/// the lock orders them. A pthread mutex is intercepted by the sanitizer.
final class PthreadLocked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
