import Glibc

/// A TCP socket bound to 127.0.0.1 on a port the kernel picks, listening or not: a free port for
/// gpsfake, or the socket of a gpsd stand-in. The caller closes ``descriptor``.
public struct LoopbackSocket {
    /// The socket.
    public let descriptor: Int32
    /// The port it is bound to.
    public let port: UInt16
    /// The bound address, for clients to connect to.
    public let address: sockaddr_in

    /// Binds, and listens with `backlog` when it is given.
    public init(listeningWithBacklog backlog: Int32?) throws(Failure) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(call: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound, backlog.map({ listen(descriptor, $0) == 0 }) ?? true else {
            let failure = Failure(call: bound ? "listen" : "bind")
            close(descriptor)
            throw failure
        }
        self.descriptor = descriptor
        self.address = address
        port = UInt16(bigEndian: address.sin_port)
    }

    /// A socket call that failed, with the C library's reason.
    public struct Failure: Error, CustomStringConvertible {
        /// Which call failed, and why.
        public let description: String

        init(call: String) { description = "\(call) on a loopback socket failed: \(String(cString: strerror(errno)))" }
    }
}
