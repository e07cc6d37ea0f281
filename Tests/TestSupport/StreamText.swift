import ArcaptureCore
import Foundation

/// Collects what a program writes to a pipe as it writes it, so a test can wait for a line (with
/// ``waitUntil(seconds:_:)``) while the program runs, and read everything once it has ended.
public final class StreamText: Sendable {
    private let bytes = Locked(Data())
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `handle` on a thread of its own, until the end of the stream.
    public init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                bytes.withLock { $0.append(chunk) }
            }
            done.signal()
        }
    }

    /// What has arrived so far.
    public var value: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }

    /// Waits for the end of the stream (the program closed it or ended) and returns all of it.
    public func finish() -> String {
        done.wait()
        return value
    }
}
