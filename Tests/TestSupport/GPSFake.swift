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

    /// Starts gpsfake with `log` and waits until gpsd accepts connections and lists the receiver.
    ///
    /// gpsfake tells its gpsd about the pseudo-terminal it feeds through gpsd's control socket, and
    /// does so as soon as the socket's file exists: gpsd binds it before it listens, and a connect
    /// in between is refused, which gpsfake ignores. That gpsd then serves clients with no
    /// receiver at all (one CI run in about ten saw it: 45 s of "no receiver" after a restart). So
    /// the receiver is checked for with `?DEVICES`, and gpsfake started again when it is missing.
    ///
    /// - Throws: ``ProcessRunner/Missing`` when gpsfake is not installed; an error when gpsd does not
    ///   come up with the receiver in three attempts of 15 s (its output is in the message).
    public init(log: String, cycle: Double = 0.05, port: UInt16? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake"),
            FileManager.default.isExecutableFile(atPath: "/usr/sbin/gpsd")
        else {
            throw ProcessRunner.Missing(tool: "gpsfake", install: "apt-get install gpsd gpsd-clients")
        }
        self.port = try port ?? Self.freePort()
        output = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfake-\(UUID().uuidString).log")
        var attempt = 1
        var started = try Self.start(log: log, cycle: cycle, port: self.port, output: output)
        while !Self.listsReceiver(port: self.port, process: started) {
            Self.stop(started, port: self.port)
            guard attempt < 3 else {
                let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                try? FileManager.default.removeItem(at: output)
                throw GPSFakeFailed(
                    description:
                        "gpsd on port \(self.port) did not list gpsfake's receiver in 3 attempts: \(log)\n\(printed)")
            }
            attempt += 1
            started = try Self.start(log: log, cycle: cycle, port: self.port, output: output)
        }
        process = started
    }

    /// Runs gpsfake, its output to `output`, and waits up to 15 s until its gpsd accepts
    /// connections on `port`.
    private static func start(log: String, cycle: Double, port: UInt16, output: URL) throws -> Process {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gpsfake")
        process.arguments = ["-q", "-P", String(port), "-c", String(cycle), log]
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        while !accepts(port: port) {
            guard Date() < deadline, process.isRunning else {
                stop(process, port: port)
                let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                try? FileManager.default.removeItem(at: output)
                throw GPSFakeFailed(description: "gpsd did not start on port \(port): \(log)\n\(printed)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return process
    }

    /// Whether gpsd on `port` lists a receiver within 5 s (gpsfake adds it right after gpsd's
    /// control socket appears, so well before that when it does at all).
    private static func listsReceiver(port: UInt16, process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && process.isRunning {
            if let answer = ask(port: port, request: "?DEVICES;\n", until: "\"class\":\"DEVICES\""),
                answer.contains("\"class\":\"DEVICE\"")
            {
                return true
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    /// Sends `request` to gpsd on `port` and reads its answer until a line holding `marker`
    /// (at most 2 s); nil when it cannot be asked.
    private static func ask(port: UInt16, request: String, until marker: String) -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected, request.utf8.count == send(descriptor, request, request.utf8.count, 0) else { return nil }
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: answer, as: UTF8.self).contains(marker) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
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
        Self.stop(process, port: port)
        try? FileManager.default.removeItem(at: output)
    }

    private static func stop(_ process: Process, port: UInt16) {
        if process.isRunning {
            process.interrupt()
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        _ = try? ProcessRunner.runBlocking(
            executable: "/usr/bin/pkill", arguments: ["-KILL", "-f", "gpsd .*-S \(port) "])
        let deadline = Date().addingTimeInterval(5)
        while accepts(port: port) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
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
