import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import GeoAR

/// Many clients and bad ones against a real libmicrohttpd daemon on loopback. What is asserted
/// does not depend on the machine's speed: the fast clients' frames are counted frame by frame
/// (the source waits for them, so a loaded machine is slower, never wrong), and what the server
/// holds afterwards is counted, not timed. Rates and CPU are the benchmark's (`arcapture-bench
/// --serve`).
@Suite("Live view under load")
struct LiveViewLoadTests {
    /// A `/stream` client on a thread of its own, reading as fast as it can (or, `paused`, not at
    /// all until ``resume()``) and recording each whole part's `X-Timestamp`.
    final class StreamReader: Sendable {
        let timestamps = Locked([String]())
        private let running = Locked(true)
        private let paused: Locked<Bool>
        private let finished = DispatchSemaphore(value: 0)

        init(port: UInt16, key: String, paused: Bool = false) throws {
            self.paused = Locked(paused)
            let client = try RawHTTPClient(port: port)
            if paused {
                // A small receive buffer, so the server meets the stalled reader at once.
                var size: Int32 = 4096
                setsockopt(client.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            // HTTP/1.0: the parts come as they are (1.1 would add chunked coding around them).
            client.send("GET /stream?key=\(key) HTTP/1.0\r\n\r\n")
            let descriptor = client.descriptor
            nonisolated(unsafe) let owned = client
            Thread.detachNewThread { [self] in
                var buffer: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65536)
                while running.withLock({ $0 }) {
                    if self.paused.withLock({ $0 }) {
                        usleep(10_000)
                        continue
                    }
                    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    guard poll(&poller, 1, 100) > 0 else { continue }
                    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { break }
                    buffer += chunk[0..<count]
                    for timestamp in Self.takeParts(&buffer) { timestamps.withLock { $0.append(timestamp) } }
                }
                owned.close()
                finished.signal()
            }
        }

        /// Starts reading.
        func resume() { paused.withLock { $0 = false } }

        /// Stops reading and closes the connection.
        func stop() {
            running.withLock { $0 = false }
            finished.wait()
        }

        /// Removes the whole parts at the start of `buffer` (after the response's head), returning
        /// their timestamps.
        static func takeParts(_ buffer: inout [UInt8]) -> [String] {
            var found: [String] = []
            while true {
                guard let start = buffer.firstRange(of: Array("--arcaptureframe\r\n".utf8)),
                    let headEnd = buffer[start.upperBound...].firstRange(of: [13, 10, 13, 10])
                else { return found }
                let head = String(decoding: buffer[start.upperBound..<headEnd.lowerBound], as: UTF8.self)
                let fields = Dictionary(
                    head.components(separatedBy: "\r\n").compactMap { line -> (String, String)? in
                        guard let colon = line.firstIndex(of: ":") else { return nil }
                        return (
                            String(line[..<colon]),
                            line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                        )
                    }, uniquingKeysWith: { $1 })
                guard let length = fields["Content-Length"].flatMap(Int.init),
                    buffer.count >= headEnd.upperBound + length + 2
                else { return found }
                found.append(fields["X-Timestamp"] ?? "")
                buffer.removeFirst(headEnd.upperBound + length + 2)
            }
        }
    }

    @Test("50 clients each get every frame, in order, while a client that stops reading holds back no one")
    func fiftyClients() throws {
        let server = try LiveViewServerTests.started(limits: .init(maxClients: 64, idleTimeoutSeconds: 30))
        defer { server.stop() }
        let port = server.address.port
        let jpegs = try (0..<4).map { try LiveViewServerTests.jpeg($0 * 60) }
        server.broadcast.publish(jpegs[0], capturedAt: Date(timeIntervalSince1970: 0))
        // Stalled for the whole run, not slow: how many frames a slow reader gets depends on how
        // fast the frames come, which is the machine's speed.
        let slow = try StreamReader(port: port, key: "slow", paused: true)
        let readers = try (0..<50).map { try StreamReader(port: port, key: "fast-\($0)") }
        defer {
            for reader in readers { reader.stop() }
            slow.stop()
        }
        #expect(waitUntil(seconds: 60) { server.streamClients.count == 51 })
        // Each has the first frame; then 600 more (20 s of a 30 fps camera), each published once
        // all 50 have the one before: every frame must reach every fast client.
        #expect(waitUntil(seconds: 60) { readers.allSatisfy { $0.timestamps.withLock { $0.count } >= 1 } })
        let frames = 600
        for index in 1...frames {
            let captured = Date(timeIntervalSince1970: Double(index))
            server.broadcast.publish(jpegs[index % jpegs.count], capturedAt: captured)
            let all = waitUntil(seconds: 60) { readers.allSatisfy { $0.timestamps.withLock { $0.count } > index } }
            if !all {
                Issue.record("frame \(index) did not reach every fast client")
                break
            }
        }
        let expected = (0...frames).map { BroadcastFrame.timestamp(Date(timeIntervalSince1970: Double($0))) }
        for reader in readers {
            #expect(reader.timestamps.withLock { $0 } == expected, "every frame, once, in order")
        }
        // The stalled client is still connected; reading again, it is brought to the newest frame
        // (what the socket buffers held on the way, then the newest, never a frame twice or out
        // of order). That it skips rather than queues is FrameBroadcastTests'.
        #expect(server.streamClients.contains { $0.key == "slow" })
        slow.resume()
        #expect(waitUntil(seconds: 60) { slow.timestamps.withLock { $0.last } == expected.last })
        let slowFrames = slow.timestamps.withLock { $0 }
        let positions = slowFrames.compactMap { expected.firstIndex(of: $0) }
        #expect(positions.count == slowFrames.count, "only frames that were published")
        #expect(positions == positions.sorted() && Set(positions).count == positions.count, "\(positions)")
        print(
            "load: 50 clients × \(frames + 1) frames each, none missed; the stalled client, read again, got \(slowFrames.count)"
        )
    }

    @Test(
        "1,000 connections that vanish mid-frame, send garbage or oversized headers: the server serves on and holds nothing after"
    )
    func badClients() throws {
        let model = LiveViewServerTests.Model()
        // An hour's idle timeout: every bad connection must be closed by what it did, not by time.
        let server = try LiveViewServerTests.started(model, limits: .init(maxClients: 16, idleTimeoutSeconds: 3600))
        defer { server.stop() }
        let port = server.address.port
        let frames = try (0..<4).map { try LiveViewServerTests.jpeg($0 * 50) }
        let publishing = Publisher(server.broadcast, frames: frames)
        defer { publishing.stop() }
        var answered = [Int: Int]()
        for cycle in 0..<1000 {
            let client = try RawHTTPClient(port: port)
            switch cycle % 6 {
            case 0:  // a stream client vanishing mid-frame
                client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = client.read(timeout: .seconds(30)) { $0.count > 1500 }
            case 1:  // a request line cut short
                client.send("GET /sta")
            case 2:
                client.send("GET /state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                answered[client.response()?.status ?? 0, default: 0] += 1
            case 3:  // a header beyond the request memory limit
                client.send("GET /state HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 40_000))\r\n\r\n")
                answered[client.response(timeout: .seconds(10))?.status ?? 0, default: 0] += 1
            case 4:  // invalid JSON, then unknown ids
                let body = cycle % 12 == 4 ? "{\"ids\": [" : #"{"ids": ["node/404"]}"#
                client.send(
                    "POST /select HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
                answered[client.response()?.status ?? 0, default: 0] += 1
            default:  // not HTTP at all
                client.send("\u{1}\u{2}\u{3} nonsense\r\n\r\n")
                _ = client.response(timeout: .seconds(10))
            }
            client.close()
        }
        #expect(answered[200] == 167, "every /state answered: \(answered)")
        #expect((answered[400] ?? 0) + (answered[422] ?? 0) == 166, "every bad /select refused: \(answered)")
        #expect(model.selection.withLock { $0 }.isEmpty, "no bad /select changed the selection")
        // Nothing is left: every connection closed, every stream client gone (a vanished one is
        // found at the next frame written to it), and the server still answers.
        #expect(
            waitUntil(seconds: 60) { server.streamClients.isEmpty && server.connectionCount == 0 },
            "\(server.streamClients.count) stream clients, \(server.connectionCount) connections left")
        let state = try RawHTTPClient(port: port)
        state.send("GET /snapshot HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let snapshot = try #require(state.response())
        #expect(snapshot.status == 200)
        #expect(frames.contains(snapshot.body), "a whole frame")
    }

    @Test("a slowloris (a request begun and never finished) is closed after the idle timeout; others are served")
    func slowloris() throws {
        let server = try LiveViewServerTests.started(limits: .init(maxClients: 16, idleTimeoutSeconds: 2))
        defer { server.stop() }
        let slowloris = try RawHTTPClient(port: server.address.port)
        slowloris.send("GET /state HTTP/1.1\r\nHost: x\r\n")
        let state = try RawHTTPClient(port: server.address.port)
        state.send("GET /state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(state.response()?.status == 200, "served while the slowloris waits")
        _ = slowloris.read(timeout: .seconds(60))
        #expect(slowloris.closedByServer, "closed by the server's idle timeout")
        #expect(waitUntil(seconds: 30) { server.connectionCount == 0 })
    }
}
