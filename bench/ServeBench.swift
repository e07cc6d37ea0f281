import ArcaptureCore
import CaptureKit
import Foundation
import GeoAR
import LiveViewHTTP

/// `arcapture-bench --serve`: the live view server alone, as `arcapture serve` runs it after the
/// pipeline has encoded a frame once: 1280x720 JPEGs published at 30 fps to 0, 1, 10 and 50
/// `/stream` clients on loopback, each a `curl` process (so their reading costs this process
/// nothing). Printed per client count: this process's CPU per frame (the server's polling thread
/// and the publisher), the CPU each added client costs, the bytes sent per second, what share of
/// the frames each client got, and the time from a frame's publication to its last byte handed to
/// each client's socket (median and 99th percentile).
enum ServeBench {
    /// A view that is only a phase: the benchmark serves frames it makes itself.
    struct StandInModel: LiveViewModel {
        func state(clients: [LiveViewState.Client]) -> LiveViewState {
            LiveViewState(phase: "running", clients: clients)
        }
        func select(_ ids: Set<String>) -> Set<String> { ids }
        func clearSelection() {}
    }

    struct Result {
        var clients: Int
        var frames: Int
        var cpuPerFrame: Double
        var bytesPerSecond: Double
        /// The least share of the frames published while it was connected that one client got.
        var worstShare: Double
        var deliveryMedian: Double?
        var delivery99: Double?
    }

    /// Serves `jpeg` at 30 fps to `count` curl clients for `seconds`.
    static func run(clients count: Int, jpeg: [UInt8], seconds: Double) throws -> Result {
        let broadcast = FrameBroadcast()
        let server = LiveViewServer(
            address: try ServerAddress(parsing: "127.0.0.1:0"), broadcast: broadcast, model: StandInModel(),
            limits: .init(maxClients: count + 4, idleTimeoutSeconds: 30), placeholderDelay: nil)
        try server.start()
        defer { server.stop() }
        let running = Locked(true)
        let publisher = Thread {
            let interval = 1.0 / 30
            var next = Date()
            while running.withLock({ $0 }) {
                broadcast.publish(jpeg, capturedAt: Date())
                next += interval
                let wait = next.timeIntervalSinceNow
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            }
        }
        publisher.start()
        defer { running.withLock { $0 = false } }
        let url = "http://127.0.0.1:\(server.address.port)/stream"
        let curls = try (0..<count).map { index -> Process in
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = ["-s", "-N", "-o", "/dev/null", "\(url)?key=c\(index)"]
            try curl.run()
            return curl
        }
        defer {
            for curl in curls {
                curl.terminate()
                curl.waitUntilExit()
            }
        }
        let connected = Date().addingTimeInterval(30)
        while server.streamClients.count < count && Date() < connected { Thread.sleep(forTimeInterval: 0.02) }
        Thread.sleep(forTimeInterval: 0.5)  // every client past its first frame
        let sentBefore = Dictionary(uniqueKeysWithValues: server.streamClients.map { ($0.key ?? "", $0.framesSent) })
        _ = server.takeDeliveryTimes()
        let publishedBefore = broadcast.publishedCount
        let cpuBefore = LiveBench.processCPU()
        Thread.sleep(forTimeInterval: seconds)
        let cpu = LiveBench.processCPU() - cpuBefore
        let published = Int(broadcast.publishedCount - publishedBefore)
        let sent = server.streamClients.map { $0.framesSent - (sentBefore[$0.key ?? ""] ?? 0) }
        let times = server.takeDeliveryTimes().sorted()
        func percentile(_ fraction: Double) -> Double? {
            times.isEmpty ? nil : times[min(times.count - 1, Int(Double(times.count) * fraction))]
        }
        return Result(
            clients: count, frames: published, cpuPerFrame: cpu / Double(max(published, 1)),
            bytesPerSecond: Double(sent.reduce(0, +) * jpeg.count) / seconds,
            worstShare: count == 0 ? 1 : Double(sent.min() ?? 0) / Double(max(published, 1)),
            deliveryMedian: percentile(0.5), delivery99: percentile(0.99))
    }

    /// 1,000 connections that misbehave (a stream client vanishing mid-frame, a request cut
    /// short, a header beyond the limit, garbage) while frames flow, then the resident memory
    /// before and after, the connections left and the seconds the 1,000 took (a connection held
    /// until the idle timeout would hold a slot for 30 s: the time shows it).
    static func misbehaving(jpeg: [UInt8]) throws -> (before: Double, after: Double, left: Int, seconds: Double) {
        let broadcast = FrameBroadcast()
        let server = LiveViewServer(
            address: try ServerAddress(parsing: "127.0.0.1:0"), broadcast: broadcast, model: StandInModel(),
            placeholderDelay: nil)
        try server.start()
        defer { server.stop() }
        let running = Locked(true)
        Thread.detachNewThread {
            while running.withLock({ $0 }) {
                broadcast.publish(jpeg, capturedAt: Date())
                Thread.sleep(forTimeInterval: 1.0 / 30)
            }
        }
        defer { running.withLock { $0 = false } }
        func connection(_ request: String, readUpTo limit: Int) {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = server.address.port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { return }
            _ = request.utf8CString.withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL))
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var received = 0
            while received < limit {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received += count
            }
        }
        let warmUp = "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n"
        for _ in 0..<50 { connection(warmUp, readUpTo: jpeg.count / 2) }
        let before = LiveBench.residentMB()
        let started = Date()
        for cycle in 0..<1000 {
            switch cycle % 4 {
            case 0: connection(warmUp, readUpTo: jpeg.count / 2)  // gone mid-frame
            case 1: connection("GET /sta", readUpTo: 0)
            case 2:
                connection(
                    "GET /state HTTP/1.1\r\nX-Big: \(String(repeating: "b", count: 40_000))\r\n\r\n", readUpTo: 1)
            default: connection("\u{1}\u{2} nonsense\r\n\r\n", readUpTo: 1)
            }
        }
        let seconds = Date().timeIntervalSince(started)
        let settled = Date().addingTimeInterval(10)
        while server.connectionCount > 0 && Date() < settled { Thread.sleep(forTimeInterval: 0.05) }
        return (before, LiveBench.residentMB(), server.connectionCount, seconds)
    }

    /// Runs every client count and prints a table.
    static func report(jpeg: [UInt8], seconds: Double) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            print("  serve: curl is missing (apt-get install curl): not measured")
            return
        }
        print(
            "  serve, \(jpeg.count)-byte 1280x720 JPEGs at 30 fps to curl clients on loopback, \(Int(seconds)) s each:")
        var idle: Double?
        for count in [0, 1, 10, 50] {
            let result = try run(clients: count, jpeg: jpeg, seconds: seconds)
            let base = idle ?? result.cpuPerFrame
            if idle == nil { idle = result.cpuPerFrame }
            let perClient = count == 0 ? 0 : (result.cpuPerFrame - base) / Double(count)
            let milliseconds = { (value: Double?) in value.map { String(format: "%.2f ms", $0 * 1000) } ?? "-" }
            print(
                String(
                    format: "    %2d clients: CPU %.3f ms a frame (%.1f µs more per client), %.1f MB/s sent, "
                        + "the slowest client got %.0f%% of %d frames;", count, result.cpuPerFrame * 1000,
                    perClient * 1e6, result.bytesPerSecond / 1e6, result.worstShare * 100, result.frames)
                    + " publication to last byte \(milliseconds(result.deliveryMedian)) median, "
                    + "\(milliseconds(result.delivery99)) 99th")
        }
        let memory = try misbehaving(jpeg: jpeg)
        print(
            String(
                format:
                    "    1,000 misbehaving connections (vanished mid-frame, cut short, oversized, garbage) in %.1f s: "
                    + "resident %.1f MB before, %.1f MB after, %d connections left; peak %.1f MB",
                memory.seconds, memory.before, memory.after, memory.left, LiveBench.peakMemoryMB()))
    }
}
