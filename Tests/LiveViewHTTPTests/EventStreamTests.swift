import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import GeoAR
@testable import LiveViewHTTP

/// `GET /events` on a real libmicrohttpd daemon on loopback, read as a browser's `EventSource`
/// would get it: HTTP/1.1 with chunked transfer coding, which the test undoes.
@Suite("Live view events")
struct EventStreamTests {
    /// An `/events` connection: what came so far, de-chunked.
    final class EventReader {
        let client: RawHTTPClient
        private var raw: [UInt8] = []

        init(port: UInt16) throws {
            client = try RawHTTPClient(port: port)
            client.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        }

        /// The response's head, once it came.
        var head: RawHTTPResponse? { RawHTTPResponse(bytes: raw) }

        /// The body so far, its chunks joined.
        var body: String {
            guard let head else { return "" }
            return String(decoding: EventStreamTests.dechunked(head.body), as: UTF8.self)
        }

        /// The events so far: (name, data) in order.
        var events: [(name: String, data: String)] { Self.parse(body) }

        /// Reads until `condition` holds for the events (or 30 s pass); whether it held.
        func read(until condition: ([(name: String, data: String)]) -> Bool) -> Bool {
            raw += client.read(timeout: .seconds(30)) { [self] bytes in
                let head = RawHTTPResponse(bytes: raw + bytes)
                guard let head else { return false }
                let text = String(decoding: EventStreamTests.dechunked(head.body), as: UTF8.self)
                return condition(Self.parse(text))
            }
            return condition(events)
        }

        private static func parse(_ text: String) -> [(name: String, data: String)] {
            text.components(separatedBy: "\n\n").compactMap { block in
                let lines = block.split(separator: "\n").map(String.init)
                guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7),
                    let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6)
                else { return nil }
                return (String(name), String(data))
            }
        }
    }

    /// A chunked body's data (`SIZE\r\nDATA\r\n`…), as far as whole chunks came.
    static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        var index = 0
        while let lineEnd = bytes[index...].firstIndex(of: 13), lineEnd + 1 < bytes.count {
            guard let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16), size > 0,
                lineEnd + 2 + size <= bytes.count
            else { break }
            data += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
            guard index < bytes.count else { break }
        }
        return data
    }

    @Test("a client first gets retry and every kind's current value, then each change as it happens")
    func changes() throws {
        let model = LiveViewServerTests.Model()
        let server = try LiveViewServerTests.started(model)
        defer { server.stop() }
        let reader = try EventReader(port: server.address.port)
        #expect(reader.read { $0.count >= 4 })
        #expect(reader.head?.status == 200)
        #expect(reader.head?.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(reader.head?.headers["cache-control"] == "no-store")
        #expect(reader.body.hasPrefix("retry: 1000\n\n"))
        #expect(reader.events.map(\.name) == ["phase", "coordinate", "navigation", "selection"])
        #expect(
            reader.events.map(\.data) == [
                #"{"phase":"running"}"#, #"{"location":null}"#, #"{"navigation":null}"#, #"{"selected":[]}"#,
            ])
        #expect(waitUntil(seconds: 30) { server.eventClientCount == 1 })

        // A selection made through /select, as the page makes it.
        let select = try RawHTTPClient(port: server.address.port)
        let body = #"{"ids": ["node/2"]}"#
        select.send(
            "POST /select HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(select.response()?.status == 200)
        #expect(reader.read { $0.contains { $0.name == "selection" && $0.data == #"{"selected":["node/2"]}"# } })
        // A phase change made by the view itself; only that kind is sent.
        let before = reader.events.count
        model.phase.withLock { $0 = "interrupted: the camera went away" }
        #expect(reader.read { $0.count > before })
        #expect(reader.events.dropFirst(before).map(\.name) == ["phase"])
        #expect(reader.events.last?.data == #"{"phase":"interrupted: the camera went away"}"#)
    }

    @Test("stop ends every event stream, and a client that vanished is forgotten at the next change")
    func endings() throws {
        let model = LiveViewServerTests.Model()
        let server = try LiveViewServerTests.started(model)
        let gone = try EventReader(port: server.address.port)
        let staying = try EventReader(port: server.address.port)
        #expect(gone.read { $0.count >= 4 })
        #expect(staying.read { $0.count >= 4 })
        #expect(waitUntil(seconds: 30) { server.eventClientCount == 2 })
        gone.client.close()
        // Suspended, the vanished client is not polled; the changes written to it after fail (the
        // first write to a socket its peer closed may still succeed), and its connection is closed.
        _ = model.select(["node/1"])
        #expect(staying.read { $0.contains { $0.name == "selection" && $0.data.contains("node/1") } })
        var toggle = false
        #expect(
            waitUntil(seconds: 30) {
                toggle.toggle()
                _ = model.select(toggle ? ["node/2"] : ["node/1"])
                return server.eventClientCount == 1
            }, "\(server.eventClientCount)")
        server.stop()
        _ = staying.client.read(timeout: .seconds(30))
        #expect(staying.client.closedByServer, "the stream ended")
        #expect(server.eventClientCount == 0)
    }

    @Test("events are each one line of JSON under /state's key, and a heartbeat is a comment")
    func wireFormat() throws {
        let events = ServerSentEvent.events(
            from: ["phase": "a \"quoted\"\nline", "location": NSNull(), "navigation": NSNull(), "selected": ["x"]])
        #expect(events.map(\.kind) == [.phase, .coordinate, .navigation, .selection])
        let phase = String(decoding: events[0].bytes, as: UTF8.self)
        #expect(phase == "event: phase\ndata: {\"phase\":\"a \\\"quoted\\\"\\nline\"}\n\n")
        #expect(events.allSatisfy { String(decoding: $0.data, as: UTF8.self).contains("\n") == false })
        #expect(String(decoding: ServerSentEvent.heartbeatMessage.bytes, as: UTF8.self) == ":\n\n")
    }
}
