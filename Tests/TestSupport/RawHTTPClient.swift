import Foundation

/// A TCP client that writes whatever bytes a test gives it (well-formed HTTP or not) to a server on
/// 127.0.0.1 and reads what comes back: for requests no HTTP library would send.
public final class RawHTTPClient {
    /// The socket; closed by ``close()`` or on deinit.
    public private(set) var descriptor: Int32
    /// Whether a read found the connection closed by the server.
    public private(set) var closedByServer = false

    /// A connection failure, with the C library's reason.
    public struct Failure: Error, CustomStringConvertible {
        /// Which call failed, and why.
        public let description: String
    }

    /// Connects to 127.0.0.1:`port`.
    public init(port: UInt16) throws(Failure) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            descriptor = -1
            throw Failure(description: "connect to port \(port): \(reason)")
        }
    }

    deinit { close() }

    /// Closes the connection (a client vanishing).
    public func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Writes all of `bytes`; false when the server closed the connection first.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Writes `text`.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the server closes the connection, `until` holds for what was read, or
    /// `timeout` passes; returns what was read.
    public func read(timeout: Duration = .seconds(30), until done: ([UInt8]) -> Bool = { _ in false }) -> [UInt8] {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline && !done(received) {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 100)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else {  // the server closed (0) or reset (ECONNRESET) the connection
                closedByServer = true
                break
            }
            received += buffer[0..<count]
        }
        return received
    }

    /// Reads one whole response (to the end of a body of `Content-Length`, or until the server
    /// closes), and splits it.
    public func response(timeout: Duration = .seconds(30)) -> RawHTTPResponse? {
        let bytes = read(timeout: timeout) { RawHTTPResponse(bytes: $0)?.isComplete == true }
        return RawHTTPResponse(bytes: bytes)
    }
}

/// An HTTP response as bytes came: status, headers, body.
public struct RawHTTPResponse {
    /// `200`.
    public let status: Int
    /// Header names lowercased.
    public let headers: [String: String]
    /// What followed the headers.
    public let body: [UInt8]
    /// Whether the body is as long as `Content-Length` says (true without one).
    public let isComplete: Bool

    /// Splits `bytes`; nil until the status line and headers are all there.
    public init?(bytes: [UInt8]) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.dropLast(3).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            return nil
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = head[0].split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        self.status = status
        self.headers = headers
        let body = Array(bytes[(end + 4)...])
        self.body = body
        isComplete = headers["content-length"].flatMap(Int.init).map { body.count >= $0 } ?? true
    }

    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
