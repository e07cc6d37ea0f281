import Foundation
import Glibc

/// A real gpsd fed by gpsfake (Debian's gpsd and gpsd-clients), replaying a receiver log on a free
/// loopback port, for tests of everything that talks to gpsd.
///
/// gpsfake starts gpsd on a pseudo-terminal, waits for the first client to watch, then writes the
/// log's sentences one by one, `cycle` seconds apart (0.05 s is as fast as gpsd 3.22 keeps up
/// with: faster, it loses whole epochs), starting over at the end. ``stop()`` ends both, which is
/// how tests see gpsd go away.
public final class GPSFake: @unchecked Sendable {
    /// The port gpsd listens on.
    public let port: UInt16
    private let process: Process
    private let output: URL

    /// Starts gpsfake with `log` and waits until gpsd accepts connections.
    ///
    /// - Throws: ``ProcessRunner/Missing`` when gpsfake is not installed; an error when gpsd does not
    ///   come up within 15 s (its output is in the message).
    public init(log: String, cycle: Double = 0.05, port: UInt16? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake"),
            FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd")
        else {
            throw ProcessRunner.Missing(tool: "gpsfake", install: "apt-get install gpsd gpsd-clients")
        }
        self.port = try port ?? Self.freePort()
        output = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfake-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
        process.arguments = ["-q", "-P", String(self.port), "-c", String(cycle), log]
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        while !Self.accepts(port: self.port) {
            guard Date() < deadline, process.isRunning else {
                stop()
                throw GPSFakeFailed(description: "gpsd did not start on port \(self.port): \(log)\n\(self.log)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// What gpsfake and gpsd printed.
    public var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// Whether gpsfake (and so gpsd) still runs.
    public var isRunning: Bool { process.isRunning }

    /// Stops gpsfake and its gpsd and waits until gpsd no longer accepts connections.
    ///
    /// gpsfake does not always pass a signal on to the gpsd it started (which runs as the `gpsd`
    /// user), so that gpsd is killed by its listening port too.
    public func stop() {
        if process.isRunning {
            process.interrupt()
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        _ = try? ProcessRunner.run(executable: "/usr/bin/pkill", arguments: ["-KILL", "-f", "gpsd .*-S \(port) "])
        let deadline = Date().addingTimeInterval(5)
        while Self.accepts(port: port) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        try? FileManager.default.removeItem(at: output)
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// A loopback port nobody listens on now (the kernel's pick for port 0).
    public static func freePort() throws -> UInt16 {
        let socket = try LoopbackSocket(listeningWithBacklog: nil)
        close(socket.descriptor)
        return socket.port
    }

    /// Whether something accepts TCP connections on the loopback `port`.
    public static func accepts(port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// gpsfake or gpsd did not come up.
public struct GPSFakeFailed: Error, CustomStringConvertible {
    /// What happened, with gpsfake's output.
    public let description: String
}
