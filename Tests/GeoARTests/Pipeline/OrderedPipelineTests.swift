import Foundation
import Testing

@testable import ArcaptureCore
@testable import CaptureKit
@testable import GeoAR

@Suite("Ordered pipeline")
struct OrderedPipelineTests {
    /// Work that takes a pseudo-random 0–2 ms, so items finish out of order.
    private static func slowSquare(_ value: Int) -> Int {
        var state = UInt64(value) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        state ^= state >> 29
        usleep(UInt32(state % 2000))
        return value * value
    }

    private final class Collected: Sendable {
        let items = Locked<[(Int, Int)]>([])
    }

    @Test("results arrive in submission order whatever finishes first", arguments: [1, 2, 4])
    func order(workers: Int) {
        let collected = Collected()
        let pipeline = OrderedPipeline<Int, Int>(
            workers: workers, capacity: 8, makeWorker: { _ in Self.slowSquare },
            deliver: { sequence, output in collected.items.withLock { $0.append((sequence, output)) } })
        for value in 0..<150 { pipeline.submit(value) }
        pipeline.finish()
        let items = collected.items.withLock { $0 }
        #expect(items.map(\.0) == Array(0..<150))
        #expect(items.map(\.1) == (0..<150).map { $0 * $0 })
    }

    /// A reference a worker can check for uniqueness, as copy-on-write does before a write.
    private final class Samples: @unchecked Sendable {}
    private struct Item: Sendable {
        var samples = Samples()
    }

    /// Whether the worker's item is the only reference to its samples: another one (the
    /// producer's, the queue's, a binding of the taken item) would make a frame's first write
    /// copy its planes.
    private static func isUnique(_ item: consuming Item) -> Bool {
        isKnownUniquelyReferenced(&item.samples)
    }

    @Test("a worker owns the only reference to its item, so drawing on a frame copies nothing", arguments: [1, 2])
    func handedOver(workers: Int) {
        let shared = Locked(0)
        let pipeline = OrderedPipeline<Item, Bool>(
            workers: workers, capacity: 4,
            makeWorker: { _ in Self.isUnique },
            deliver: { _, unique in if !unique { shared.withLock { $0 += 1 } } })
        for _ in 0..<200 { pipeline.submit(Item()) }
        pipeline.finish()
        #expect(shared.withLock { $0 } == 0)
    }

    @Test("no more than `capacity` items are ever in flight, even when delivery is slow")
    func bounded() {
        let inFlightAtDelivery = Locked<[Int]>([])
        let submittedCount = Locked(0)
        let pipeline = OrderedPipeline<Int, Int>(
            workers: 3, capacity: 5, makeWorker: { _ in { $0 } },
            deliver: { sequence, _ in
                usleep(300)  // a slow writer: the producer must wait
                let submitted = submittedCount.withLock { $0 }
                inFlightAtDelivery.withLock { $0.append(submitted - sequence) }
            })
        for value in 0..<100 {
            pipeline.submit(value)
            submittedCount.withLock { $0 += 1 }
        }
        pipeline.finish()
        #expect(pipeline.peakInFlight <= 5)
        #expect(pipeline.peakInFlight >= 3, "the pool was used")
        #expect(inFlightAtDelivery.withLock { $0.allSatisfy { $0 <= 5 } })
    }

    @Test("each worker builds its state once, on its own thread, and only uses it there")
    func workerState() {
        let built = Locked<[Int: UInt]>([:])
        let misuse = Locked(0)
        let pipeline = OrderedPipeline<Int, Int>(
            workers: 3, capacity: 6,
            makeWorker: { index in
                let thread = UInt(pthread_self())
                built.withLock { $0[index] = thread }
                return { value in
                    if UInt(pthread_self()) != thread { misuse.withLock { $0 += 1 } }
                    return value
                }
            }, deliver: { _, _ in })
        for value in 0..<60 { pipeline.submit(value) }
        pipeline.finish()
        #expect(built.withLock { $0.count } == 3)
        #expect(Set(built.withLock { Array($0.values) }).count == 3)
        #expect(misuse.withLock { $0 } == 0)
    }

    @Test("the same inputs give the same outputs with one worker or several; finishing with nothing is fine")
    func deterministic() {
        func run(workers: Int) -> [Int] {
            let collected = Collected()
            let pipeline = OrderedPipeline<Int, Int>(
                workers: workers, capacity: 4, makeWorker: { _ in Self.slowSquare },
                deliver: { sequence, output in collected.items.withLock { $0.append((sequence, output)) } })
            for value in 0..<40 { pipeline.submit(value * 7) }
            pipeline.finish()
            return collected.items.withLock { $0.map(\.1) }
        }
        #expect(run(workers: 1) == run(workers: 3))
        let empty = OrderedPipeline<Int, Int>(
            workers: 2, capacity: 2, makeWorker: { _ in { $0 } }, deliver: { _, _ in })
        empty.finish()
        #expect(empty.peakInFlight == 0)
    }
}
