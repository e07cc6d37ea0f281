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
    /// The descriptor has reached its end (or failed), or reading was interrupted.
    private(set) var ended = false
    /// Reading stopped because ``interruption`` said so, not at the stream's end.
    private(set) var interrupted = false
    /// Asked while a read waits for data (a pipe whose writer is silent, a camera's stream
    /// stalled): true gives the read up, so a stop request (Ctrl-C, SIGTERM) is acted on at once
    /// rather than when the writer next writes or closes, which may be never. Without it, reads
    /// block as long as they must.
    var interruption: (@Sendable () -> Bool)?
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

    /// Waits until the descriptor is readable (or at its end, or failed: the read says which),
    /// asking ``interruption`` four times a second while it waits; false when it said to stop.
    private func waitUntilReadable() -> Bool {
        guard let interruption else { return true }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            if interruption() {
                interrupted = true
                ended = true
                return false
            }
            let ready = poll(&entry, 1, 250)
            if ready > 0 || (ready < 0 && errno != EINTR) { return true }
        }
    }

    /// Reads once more (up to 1 MiB); false at the end or when interrupted. EINTR is retried.
    @discardableResult
    func readMore() -> Bool {
        guard !ended else { return false }
        while true {
            guard waitUntilReadable() else { return false }
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
            guard waitUntilReadable() else { break }
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
