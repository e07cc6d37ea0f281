import CaptureKit
import Foundation
import Testing

@testable import ArcaptureCore
@testable import GeoAR

/// The broadcast's rule for a client that fell behind, without sockets: it is handed the newest
/// frame, never the ones it missed, so a slow viewer sees a lower rate and no growing delay.
@Suite("Frame broadcast")
struct FrameBroadcastTests {
    /// A client that counts its suspensions and resumptions.
    final class Waiter: BroadcastWaiter {
        let suspended = Locked(0)
        let resumed = Locked(0)
        func suspend() { suspended.withLock { $0 += 1 } }
        func resume() { resumed.withLock { $0 += 1 } }
    }

    @Test("a client behind by many frames gets the newest; one up to date waits and is woken by the next")
    func newestOrWait() throws {
        let broadcast = FrameBroadcast()
        let waiter = Waiter()
        guard case .suspended = broadcast.next(after: 0, for: waiter) else {
            Issue.record("no frame yet: the client waits")
            return
        }
        #expect(waiter.suspended.withLock { $0 } == 1)
        for index in 1...5 { _ = broadcast.publish([UInt8(index)], capturedAt: Date(timeIntervalSince1970: 0)) }
        #expect(waiter.resumed.withLock { $0 } == 1, "woken by the first frame published, once")
        guard case .frame(let newest) = broadcast.next(after: 1, for: waiter) else {
            Issue.record("frames 2 to 5 were published: the client must get one")
            return
        }
        #expect(newest.sequence == 5 && newest.jpeg == [5], "the newest, not the next (2)")
        guard case .suspended = broadcast.next(after: 5, for: waiter) else {
            Issue.record("up to date: the client waits")
            return
        }
        broadcast.close()
        guard case .closed = broadcast.next(after: 5, for: waiter) else {
            Issue.record("closed: the stream ends")
            return
        }
    }
}
