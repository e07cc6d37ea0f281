import Foundation

/// Processes items on a fixed pool of worker threads and delivers the results in the order the
/// items were submitted, with a bounded number in flight: what annotating footage needs (decode,
/// draw and encode in parallel; write frames in order; memory bounded however long the footage).
///
/// Each worker builds its own state once (`makeWorker` runs on its thread: a JPEG codec and a
/// compositor are not thread-safe), so work needs no locks. ``submit(_:)`` blocks while `capacity`
/// items are submitted but not yet delivered; deliveries run in order on a thread of their own,
/// outside the pipeline's lock, so a worker never waits for a write (with one worker, writing
/// overlaps the next item's work, as ffmpeg's muxing thread does).
///
/// Each thread is woken only when it has something to do (semaphores for free slots, items and
/// results: one condition broadcast on every event woke all of them, and the scheduler's share
/// showed in profiles).
///
/// Thread-safe: `submit` and `finish` may be called from any one producer thread.
public final class OrderedPipeline<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    // @unchecked: every mutable field below is read and written only with `lock` held.
    private let lock = NSLock()
    /// Submitted items; a taken one is set to nil at once (its memory — a decoded frame, say — is
    /// the worker's then), and the taken front is dropped now and then.
    private var pending: [(sequence: Int, input: Input)?] = []
    private var pendingStart = 0
    private var results: [Int: Output] = [:]
    private var submitted = 0
    private var delivered = 0
    private var closed = false
    private var peak = 0
    private let workers: Int
    private let deliver: @Sendable (Int, Output) -> Void
    /// Free places for items (capacity minus items in flight); signalled as results are delivered.
    private let space = DispatchSemaphore(value: 0)
    /// One signal per submitted item, and one per worker when the pipeline closes.
    private let work = DispatchSemaphore(value: 0)
    /// One signal per result stored, and one when the pipeline closes: the writer looks again.
    private let ready = DispatchSemaphore(value: 0)
    /// One signal per thread that has ended.
    private let done = DispatchSemaphore(value: 0)

    /// The most items in flight (submitted, not yet delivered) seen so far, for tests and reports.
    public var peakInFlight: Int { lock.withLock { peak } }

    /// Starts `workers` threads.
    ///
    /// - Parameters:
    ///   - workers: worker threads (at least 1).
    ///   - capacity: items in flight at most (at least `workers`).
    ///   - makeWorker: builds one worker's function, on that worker's thread; it owns each item it
    ///     is given.
    ///   - deliver: receives each result with its sequence number (0, 1, 2…), in order.
    public init(
        workers: Int, capacity: Int, makeWorker: @escaping @Sendable (Int) -> (consuming Input) -> Output,
        deliver: @escaping @Sendable (Int, Output) -> Void
    ) {
        let workers = max(1, workers)
        self.workers = workers
        self.deliver = deliver
        // Counted up from 0 rather than created at `capacity`: libdispatch refuses to free a
        // semaphore whose count is below the one it was created with.
        for _ in 0..<max(capacity, workers) { space.signal() }
        for index in 0..<workers {
            let thread = Thread { [self] in run(makeWorker(index)) }
            thread.name = "arcapture-worker-\(index)"
            thread.start()
        }
        let delivery = Thread { [self] in deliverInOrder() }
        delivery.name = "arcapture-writer"
        delivery.start()
    }

    /// Submits the next item; blocks while `capacity` items are in flight.
    public func submit(_ input: consuming Input) {
        space.wait()
        // Moved into the queue (lock and unlock rather than a closure, which could only copy
        // it): the caller keeping a reference while a worker already draws on the frame would
        // make that drawing copy its planes.
        lock.lock()
        pending.append((submitted, consume input))
        submitted += 1
        peak = max(peak, submitted - delivered)
        lock.unlock()
        work.signal()
    }

    /// Waits until every submitted item has been delivered, then stops the workers.
    public func finish() {
        lock.withLock { closed = true }
        for _ in 0..<workers { work.signal() }
        ready.signal()
        for _ in 0...workers { done.wait() }
    }

    private func run(_ work: (consuming Input) -> Output) {
        while true {
            self.work.wait()
            // Each wait is for an item, or (after `finish`) for the signal to stop; an item taken
            // by another worker meanwhile leaves this one the stop signal.
            var taken: (sequence: Int, input: Input)? = lock.withLock {
                guard pendingStart < pending.count else { return nil }
                let item = pending[pendingStart].take()
                pendingStart += 1
                if pendingStart > 64 && pendingStart * 2 > pending.count {  // drop what was taken
                    pending.removeFirst(pendingStart)
                    pendingStart = 0
                }
                return item
            }
            // Handed over, not lent: moved out of the queue and of `taken`, so that a worker that
            // changes a frame in place (drawing on its planes) owns the only reference, and
            // copy-on-write copies nothing. (A binding of `taken` kept alive beside the input
            // copied every plane of every frame.)
            guard let sequence = taken?.sequence, let input = taken.take()?.input else { break }
            let output = work(consume input)
            lock.withLock { results[sequence] = output }
            ready.signal()
        }
        done.signal()
    }

    /// The delivery thread: hands each result to `deliver` as soon as it is the next in order,
    /// until the pipeline is closed and everything submitted has been delivered.
    private func deliverInOrder() {
        while true {
            let next: (sequence: Int, output: Output)? = lock.withLock {
                results.removeValue(forKey: delivered).map { (delivered, $0) }
            }
            if let next {
                deliver(next.sequence, next.output)
                lock.withLock { delivered += 1 }
                space.signal()
                continue
            }
            if lock.withLock({ closed && delivered == submitted }) { break }
            ready.wait()
        }
        done.signal()
    }
}
