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

    /// Copies up to `target.count` bytes into `target`: the unconsumed ones first, then straight from
    /// the descriptor (a Y4M frame's planes are read without passing through the buffer). Returns
    /// how many were copied: fewer only at the stream's end. EINTR is retried.
    func read(into target: UnsafeMutableRawBufferPointer) -> Int {
        let buffered = min(available, target.count)
        if buffered > 0 {
            bytes.withUnsafeBytes { source in
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + buffered)]))
            }
            consume(buffered)
        }
        var copied = buffered
        while copied < target.count && !ended {
            let count = Glibc.read(descriptor, target.baseAddress.map { $0 + copied }, target.count - copied)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                ended = true
                break
            }
            copied += count
        }
        return copied
    }

    /// Consumes `count` bytes, dropping consumed ones now and then (after a mebibyte: the buffer
    /// stays about a frame of MJPEG and one read large).
    func consume(_ count: Int) {
        start += count
        if start > 1 << 20 && start * 2 > bytes.count {
            bytes.removeFirst(start)
            start = 0
        }
    }
}
