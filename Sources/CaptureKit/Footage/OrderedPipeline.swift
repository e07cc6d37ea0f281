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
/// Thread-safe: `submit` and `finish` may be called from any one producer thread.
public final class OrderedPipeline<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    // @unchecked: every mutable field below is read and written only with `condition` locked.
    private let condition = NSCondition()
    /// Submitted items; a taken one is set to nil at once (its memory — a decoded frame, say — is
    /// the worker's then), and the taken front is dropped now and then.
    private var pending: [(sequence: Int, input: Input)?] = []
    private var pendingStart = 0
    private var results: [Int: Output] = [:]
    private var submitted = 0
    private var delivered = 0
    private var closed = false
    private var running = 0
    private let capacity: Int
    private let deliver: @Sendable (Int, Output) -> Void

    private var peak = 0

    /// The most items in flight (submitted, not yet delivered) seen so far, for tests and reports.
    public var peakInFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return peak
    }

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
        self.capacity = max(capacity, workers)
        self.deliver = deliver
        running = workers + 1  // and the delivery thread
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
    public func submit(_ input: Input) {
        condition.lock()
        defer { condition.unlock() }
        while submitted - delivered >= capacity { condition.wait() }
        pending.append((submitted, input))
        submitted += 1
        peak = max(peak, submitted - delivered)
        condition.broadcast()
    }

    /// Waits until every submitted item has been delivered, then stops the workers.
    public func finish() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
        while delivered < submitted || running > 0 { condition.wait() }
    }

    private func run(_ work: (consuming Input) -> Output) {
        condition.lock()
        while true {
            while pendingStart == pending.count && !closed { condition.wait() }
            guard pendingStart < pending.count else { break }  // closed and drained
            guard let (sequence, input) = pending[pendingStart] else { break }
            pending[pendingStart] = nil
            pendingStart += 1
            if pendingStart > 64 && pendingStart * 2 > pending.count {  // drop what was taken
                pending.removeFirst(pendingStart)
                pendingStart = 0
            }
            condition.unlock()
            // Handed over, not lent: a worker that changes a frame in place (drawing on Y4M planes)
            // then owns the only reference, and copy-on-write copies nothing.
            let output = work(consume input)
            condition.lock()
            results[sequence] = output
            condition.broadcast()
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The delivery thread: hands each result to `deliver` as soon as it is the next in order,
    /// until the pipeline is closed and everything submitted has been delivered.
    private func deliverInOrder() {
        condition.lock()
        while true {
            if let output = results.removeValue(forKey: delivered) {
                let sequence = delivered
                condition.unlock()
                deliver(sequence, output)
                condition.lock()
                delivered += 1
                condition.broadcast()
                continue
            }
            if closed && delivered == submitted { break }
            condition.wait()
        }
        running -= 1
        condition.broadcast()
        condition.unlock()
    }
}
