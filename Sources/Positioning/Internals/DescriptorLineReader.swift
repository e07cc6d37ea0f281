import ArcaptureCore
import Glibc

/// Reads text lines from a non-blocking descriptor (a socket to gpsd, a serial port), waiting in
/// `poll(2)` for at most a timeout so the reading thread can notice that it should stop.
///
/// Lines longer than ``maximumLineLength`` are cut there: a stream of binary noise must not grow
/// memory without bound.
struct DescriptorLineReader {
    /// What one wait produced.
    enum Outcome {
        /// Complete lines (without their LF), possibly none if the timeout passed first.
        case lines([String])
        /// The other end closed the stream.
        case endOfStream
        /// Reading failed.
        case failed(SystemCallError)
    }

    let descriptor: Int32
    private var pending: [UInt8] = []
    static let maximumLineLength = 16_384

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Waits up to `timeoutMilliseconds` for data and returns the complete lines it finishes.
    mutating func read(timeoutMilliseconds: Int32) -> Outcome {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        switch SystemCall.retryingInterrupts("poll", { poll(&poller, 1, timeoutMilliseconds) }) {
        case .failure(let error): return .failed(error)
        case .success(0): return .lines([])
        case .success: break
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let result = buffer.withUnsafeMutableBytes { raw in
            SystemCall.retryingInterrupts("read") { Glibc.read(descriptor, raw.baseAddress, raw.count) }
        }
        switch result {
        case .failure(let error) where error.errno == .wouldBlock: return .lines([])
        case .failure(let error): return .failed(error)
        case .success(0): return .endOfStream
        case .success(let count):
            pending.append(contentsOf: buffer[0..<count])
            return .lines(takeLines())
        }
    }

    private mutating func takeLines() -> [String] {
        var lines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        if pending.count > Self.maximumLineLength {
            lines.append(String(decoding: pending, as: UTF8.self))
            pending.removeAll()
        }
        return lines
    }
}
