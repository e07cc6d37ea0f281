import CaptureKit

@testable import ArcaptureCore

/// Values handed to a callback from any thread, kept in order.
final class StreamCollector<Value: Sendable>: Sendable {
    private let stored = Locked<[Value]>([])

    func append(_ value: Value) { stored.withLock { $0.append(value) } }

    var values: [Value] { stored.withLock { $0 } }
}
