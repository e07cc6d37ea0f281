import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Bytes read from a file or a pipe on demand: what has been read and not yet consumed, with the
/// descriptor's end noted. Consumed bytes are dropped as reading goes, so memory stays bounded.
final class StreamBuffer {
    private(set) var bytes: [UInt8] = []
    /// Where the unconsumed bytes start.
    private(set) var start = 0
    /// The descriptor has reached its end (or failed).
    private(set) var ended = false
    private let descriptor: Int32
    private let closesDescriptor: Bool
    private var chunk = [UInt8](repeating: 0, count: 1 << 20)

    /// Reads from `descriptor`, closing it when done if `closesDescriptor` (a file it opened).
    init(descriptor: Int32, closesDescriptor: Bool = false) {
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
    }

    deinit { if closesDescriptor { close(descriptor) } }

    /// Unconsumed bytes.
    var available: Int { bytes.count - start }

    /// Reads once more (up to 1 MiB); false at the end. EINTR is retried.
    @discardableResult
    func readMore() -> Bool {
        guard !ended else { return false }
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                ended = true
                return false
            }
            bytes += chunk[0..<count]
            return true
        }
    }

    /// Reads until `count` bytes are available; false if the stream ends first.
    func fill(_ count: Int) -> Bool {
        while available < count { if !readMore() { return false } }
        return true
    }

    /// Consumes `count` bytes, dropping consumed ones now and then.
    func consume(_ count: Int) {
        start += count
        if start > 8 << 20 && start * 2 > bytes.count {
            bytes.removeFirst(start)
            start = 0
        }
    }
}
