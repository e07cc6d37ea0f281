import Foundation

/// How many programs the tests run at once: one per core. Waiting for programs off the
/// cooperative pool freed it for other tests, and Swift Testing then started every test that runs
/// a program at once: forty ffmpeg and arcapture processes under AddressSanitizer on two cores
/// took minutes each, and in-process tests beside them ran out of their time limits (2026-12-06).
/// Before, the pool's width (two threads, each blocked on one program) was the limit by accident;
/// now it is this, and a test waiting for a slot holds no thread.
public final class ProgramSlots: @unchecked Sendable {
    /// The tests' slots: as many as the machine has cores.
    public static let shared = ProgramSlots(count: max(1, ProcessInfo.processInfo.activeProcessorCount))

    private let lock = NSLock()
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Slots for `count` programs at once.
    public init(count: Int) { free = count }

    /// Waits (suspended, holding no thread) until a slot is free, and takes it.
    public func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if free > 0 {
                free -= 1
                lock.unlock()
                continuation.resume()
            } else {
                waiting.append(continuation)
                lock.unlock()
            }
        }
    }

    /// Gives a slot back: to the longest waiting, or to the free ones.
    public func release() {
        lock.lock()
        if waiting.isEmpty {
            free += 1
            lock.unlock()
        } else {
            let next = waiting.removeFirst()
            lock.unlock()
            next.resume()
        }
    }
}
