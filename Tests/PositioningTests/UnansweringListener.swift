import Foundation
import Glibc
import TestSupport

/// A loopback port where connection attempts hang: a listener whose queue is full and which never
/// accepts, so the kernel drops further SYNs and a client's connect waits until its own timeout
/// (what a gpsd host that is down or firewalled looks like, without leaving this machine).
final class UnansweringListener {
    let port: UInt16
    private var descriptors: [Int32] = []

    init() throws {
        let listener = try LoopbackSocket(listeningWithBacklog: 0)
        descriptors.append(listener.descriptor)
        port = listener.port
        var address = listener.address
        // Fill the queue: these attempts complete or wait; the next ones hang.
        for _ in 0..<3 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
            guard client >= 0 else { throw Failure(what: "socket") }
            descriptors.append(client)
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        Thread.sleep(forTimeInterval: 0.2)
    }

    deinit { for descriptor in descriptors { close(descriptor) } }

    struct Failure: Error, CustomStringConvertible {
        let what: String
        var description: String { "\(what) failed: \(String(cString: strerror(errno)))" }
    }
}
