import Foundation

/// Where a ``LiveViewServer`` listens: an IPv4 or IPv6 address and a port.
public struct ServerAddress: Equatable, Sendable, CustomStringConvertible {
    /// The address, as written (`127.0.0.1`, `::1`, `0.0.0.0`).
    public let host: String
    /// The port; 0 lets the system choose a free one.
    public let port: UInt16
    /// Whether `host` is IPv6.
    public let isIPv6: Bool

    /// `127.0.0.1:8080`: loopback only, the default (µStreamer's and mjpg-streamer's port).
    public static let loopbackDefault = ServerAddress(host: "127.0.0.1", port: 8080, isIPv6: false)

    private init(host: String, port: UInt16, isIPv6: Bool) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// Parses `ADDR:PORT` (`127.0.0.1:8080`, `0.0.0.0:8080`, `[::1]:8080`) or a bare `PORT`
    /// (on loopback).
    ///
    /// - Throws: a ``ServerError/badAddress(_:_:)`` saying what is wrong.
    public init(parsing text: String) throws(ServerError) {
        var host = "127.0.0.1"
        var portText = text
        var isIPv6 = false
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw .badAddress(text, "an IPv6 address is written [ADDR]:PORT")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = String(text[text.index(close, offsetBy: 2)...])
            isIPv6 = true
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        guard let port = UInt16(portText) else {
            throw .badAddress(text, "the port must be a number from 0 to 65535, not '\(portText)'")
        }
        guard Self.parses(host, ipv6: isIPv6) else {
            throw .badAddress(text, "'\(host)' is not an \(isIPv6 ? "IPv6" : "IPv4") address")
        }
        self.init(host: host, port: port, isIPv6: isIPv6)
    }

    /// Whether only this machine can connect (127.0.0.0/8 or ::1).
    public var isLoopback: Bool {
        isIPv6 ? host == "::1" : host.hasPrefix("127.")
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The same address on another port (the one the system chose for port 0).
    public func with(port: UInt16) -> ServerAddress { ServerAddress(host: host, port: port, isIPv6: isIPv6) }

    private static func parses(_ host: String, ipv6: Bool) -> Bool {
        if ipv6 {
            var address = in6_addr()
            return inet_pton(AF_INET6, host, &address) == 1
        }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }

    /// Calls `body` with the address as a `sockaddr`.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
