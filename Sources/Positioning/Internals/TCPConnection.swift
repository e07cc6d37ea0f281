import ArcaptureCore
import Glibc

/// A TCP client socket, connected with a timeout and left non-blocking for ``DescriptorLineReader``.
final class TCPConnection {
    /// Why a connection could not be made, as the C library words it (`Connection refused`).
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { _ = SystemCall.once("close") { close(descriptor) } }

    /// Connects to `host` (a name or an address) and `port`, trying each address the resolver gives.
    ///
    /// - Parameter isCancelled: asked every 100 ms while a connection is pending; when it says yes,
    ///   the attempt ends at once (a source being stopped does not wait out the timeout).
    /// - Returns: the connection, or a message such as `Connection refused` for the last address tried.
    static func connect(
        host: String, port: UInt16, timeoutMilliseconds: Int32, isCancelled: () -> Bool = { false }
    ) -> Result<TCPConnection, Problem> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(Problem(description: "cannot resolve '\(host)': \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(first) }
        var lastProblem = Problem(description: "no address")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            guard
                case .success(let descriptor) = SystemCall.retryingInterrupts(
                    "socket",
                    {
                        socket(address.pointee.ai_family, type, address.pointee.ai_protocol)
                    })
            else { continue }
            let connection = TCPConnection(descriptor: descriptor)
            switch connection.finishConnect(
                address.pointee, timeoutMilliseconds: timeoutMilliseconds, isCancelled: isCancelled)
            {
            case .success: return .success(connection)
            case .failure(let problem): lastProblem = problem
            }
            if isCancelled() { break }
        }
        return .failure(lastProblem)
    }

    private func finishConnect(
        _ address: addrinfo, timeoutMilliseconds: Int32, isCancelled: () -> Bool
    ) -> Result<Void, Problem> {
        // A non-blocking connect answers EINPROGRESS; poll for writability, then SO_ERROR says how
        // it ended. (connect is not retried on EINTR: the attempt goes on, so poll instead.) The
        // wait is cut into slices, to notice a cancellation.
        if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return .success(()) }
        let error = Errno.current
        guard error.rawValue == EINPROGRESS || error == .interrupted else {
            return .failure(Problem(description: error.description))
        }
        var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        var waited: Int32 = 0
        var ready: Int32 = 0
        while ready == 0 {
            if isCancelled() { return .failure(Problem(description: "cancelled")) }
            let slice = min(100, timeoutMilliseconds - waited)
            guard slice > 0 else {
                return .failure(Problem(description: "timed out after \(timeoutMilliseconds) ms"))
            }
            switch SystemCall.retryingInterrupts("poll", { poll(&poller, 1, slice) }) {
            case .failure(let failure): return .failure(Problem(description: failure.description))
            case .success(let count): ready = count
            }
            waited += slice
        }
        var socketError: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = SystemCall.retryingInterrupts("getsockopt") {
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &socketError, &length)
        }
        return socketError == 0
            ? .success(()) : .failure(Problem(description: Errno(rawValue: socketError).description))
    }

    /// Writes all of `text`, waiting for the socket to take it.
    func send(_ text: String) -> Result<Void, SystemCallError> {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let result = bytes.withUnsafeBytes { raw in
                SystemCall.retryingInterrupts("write") { write(descriptor, raw.baseAddress, raw.count) }
            }
            switch result {
            case .success(let count): bytes = bytes.dropFirst(count)
            case .failure(let error) where error.errno == .wouldBlock:
                var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = SystemCall.retryingInterrupts("poll") { poll(&poller, 1, 1000) }
            case .failure(let error): return .failure(error)
            }
        }
        return .success(())
    }
}
