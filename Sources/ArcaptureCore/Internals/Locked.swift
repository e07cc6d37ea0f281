import Foundation

/// A value behind a pthread mutex (`NSLock`), for state that several threads share.
///
/// The project uses this rather than `Synchronization.Mutex`. On Linux that is a futex the thread
/// sanitizer cannot see, so every access it orders looks like a race to `swift test
/// --sanitize=thread` (checked with Swift 6.3: two threads appending to a `Mutex`-guarded array
/// are reported). CI runs suites under the sanitizer, so shared state sits behind a pthread mutex,
/// which the sanitizer intercepts and so knows orders what it guards. The cost is one class
/// allocation per lock and an uncontended pthread lock, nothing a frame pipeline can measure.
package final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Guards `value` (which may be noncopyable: a session's state is).
    package init(_ value: consuming Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock. `body` must not take the lock again.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
