import Glibc

/// A TCP socket listening on a free loopback port, for the gpsd stand-ins.
struct LoopbackListener {
    let descriptor: Int32
    let port: UInt16
    /// The bound address, for clients to connect to.
    let address: sockaddr_in

    /// Binds to 127.0.0.1 on a port the kernel picks and listens with `backlog`.
    init(backlog: Int32) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard descriptor >= 0, bound, listen(descriptor, backlog) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw UnansweringListener.Failure(what: "a loopback listener")
        }
        self.descriptor = descriptor
        self.address = address
        port = UInt16(bigEndian: address.sin_port)
    }
}
