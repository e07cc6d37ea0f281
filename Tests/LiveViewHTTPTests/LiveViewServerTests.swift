import ARCompositor
import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import GeoAR
@testable import JPEGKit
@testable import LiveViewHTTP

/// The HTTP server on a real libmicrohttpd daemon on loopback, with real clients: ffmpeg reading
/// the MJPEG stream, and a raw socket for what no HTTP library would send. The frames are real
/// JPEGs; the model is a stand-in for a view (the CLI suite runs the whole pipeline).
@Suite("Live view server")
struct LiveViewServerTests {
    /// A view's stand-in: known points of interest and a selection.
    final class Model: LiveViewModel {
        let known: Set<String>
        let selection = Locked(Set<String>())
        let phase = Locked("running")
        init(known: Set<String> = ["node/1", "node/2"]) { self.known = known }

        func state(clients: [LiveViewState.Client]) -> LiveViewState {
            LiveViewState(
                phase: phase.withLock { $0 }, format: nil, fps: 0,
                frames: .init(written: 0, annotated: 0, withoutPose: 0, dropped: 0, damaged: 0, published: 0),
                location: nil, navigation: nil, selected: selection.withLock { $0.sorted() }, points: [],
                clients: clients)
        }

        func select(_ ids: Set<String>) -> Set<String> {
            let unknown = ids.subtracting(known)
            if unknown.isEmpty { selection.withLock { $0 = ids } }
            return unknown
        }

        func clearSelection() { selection.withLock { $0 = [] } }
    }

    /// Distinct real JPEGs: a grey level per frame.
    static func jpeg(_ level: Int) throws -> [UInt8] {
        var image = YCbCrImage(width: 320, height: 240, subsampling: .s420)
        for index in image.planes[0].bytes.indices { image.planes[0].bytes[index] = UInt8(level % 256) }
        return Array(try JPEGEncoder().encode(image, quality: 80))
    }

    /// How many frames ffmpeg decodes from the MJPEG stream at `url`, asked for `count`.
    static func framesFFmpegReads(_ url: String, count: Int) async throws -> Int {
        let result = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-nostdin", "-loglevel", "error", "-f", "mpjpeg", "-i", url, "-frames:v", "\(count)", "-f", "framecrc",
                "-",
            ],
            install: "apt-get install ffmpeg")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
    }

    /// A server on a free loopback port; without placeholder frames unless `placeholderDelay`
    /// says after how long (the tests that count frames count the camera's).
    static func started(
        _ model: any LiveViewModel = Model(), limits: LiveViewServer.Limits = .init(), placeholderDelay: Duration? = nil
    ) throws -> LiveViewServer {
        let server = LiveViewServer(
            address: try ServerAddress(parsing: "127.0.0.1:0"), broadcast: FrameBroadcast(), model: model,
            limits: limits, placeholderDelay: placeholderDelay)
        try server.start()
        #expect(server.address.port != 0)
        return server
    }

    private func get(_ path: String, port: UInt16, method: String = "GET", body: String? = nil) throws
        -> RawHTTPResponse
    {
        let client = try RawHTTPClient(port: port)
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let body { request += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        request += "\r\n" + (body ?? "")
        client.send(request)
        return try #require(client.response())
    }

    @Test("/snapshot is 503 until a frame is published, then the newest frame with X-Timestamp")
    func snapshot() throws {
        let server = try Self.started()
        defer { server.stop() }
        let before = try get("/snapshot", port: server.address.port)
        #expect(before.status == 503)
        #expect(before.headers["retry-after"] == "1")
        let frames = try (1...3).map { try Self.jpeg($0 * 60) }
        let captured = Date(timeIntervalSince1970: 1_764_639_607.25)
        for frame in frames { server.broadcast.publish(frame, capturedAt: captured) }
        for path in ["/snapshot", "/?action=snapshot"] {
            let after = try get(path, port: server.address.port)
            #expect(after.status == 200)
            #expect(after.headers["content-type"] == "image/jpeg")
            #expect(after.headers["cache-control"] == "no-store")
            #expect(after.headers["x-timestamp"] == "1764639607.250000")
            #expect(after.body == frames[2], "the newest frame, byte for byte")
        }
    }

    @Test("unknown paths are 404, wrong methods 405 with Allow, and serving goes on")
    func wrongRequests() throws {
        let server = try Self.started()
        defer { server.stop() }
        let missing = try get("/nothing", port: server.address.port)
        #expect(missing.status == 404)
        #expect(missing.text.contains("/nothing"))
        let wrong = try get("/snapshot", port: server.address.port, method: "POST", body: "{}")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, HEAD")
        let selectByGet = try get("/select", port: server.address.port)
        #expect(selectByGet.status == 405)
        #expect(selectByGet.headers["allow"] == "POST, DELETE")
        #expect(try get("/state", port: server.address.port).status == 200)
    }

    @Test("a selection made in the page reaches every onChange handler of the view's binding and the session")
    func pageSelectionReachesProgram() async throws {
        let directory = try PackagePaths.temporaryDirectory("page-selection")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = ARSession(
            mapData: MapData(pointsOfInterest: [
                PointOfInterest(id: "node/1", name: "One", latitude: 60.1718, longitude: 24.94, altitude: 20),
                PointOfInterest(id: "node/2", name: "Two", latitude: 60.1718, longitude: 24.941, altitude: 20),
            ]))
        let queue = DispatchQueue(label: "page-selection")
        // A footage view, presented: it holds the session's slot and waits for a location source
        // (none is given: nothing is read or written).
        let view = GeoARView(
            frame: .full, session: session,
            configuration: GeoARConfiguration(
                source: .footage(
                    path: directory.appendingPathComponent("never-read.y4m").path, timing: FootageTiming()),
                output: .footage(.y4mFile(directory.appendingPathComponent("out.y4m").path), workers: 1),
                handlerQueue: queue, messages: .silent))
        let selection = GeoARBinding<Set<String>>([])
        let (first, second) = (Locked<[Set<String>]>([]), Locked<[Set<String>]>([]))
        selection.onChange(on: queue) { value in first.withLock { $0.append(value) } }
        selection.onChange(on: queue) { value in second.withLock { $0.append(value) } }
        view.selectedPOIs(selection)
        view.present()
        #expect(waitUntil { view.phase == LoadPhase.waitingForLocationSource }, "\(String(describing: view.phase))")
        let server = try Self.started(
            GeoARLiveViewModel(view: view, device: "none", source: "none", broadcast: FrameBroadcast()))
        defer { server.stop() }
        let port = server.address.port

        let chosen = try get("/select", port: port, method: "POST", body: #"{"ids": ["node/2"]}"#)
        #expect(chosen.status == 200, "\(chosen.text)")
        #expect(waitUntil { first.withLock { $0 } == [["node/2"]] && second.withLock { $0 } == [["node/2"]] })
        #expect(selection.value == ["node/2"] && session.selectedPOIIDs == ["node/2"])
        // Unknown ids change nothing and tell no one.
        #expect(try get("/select", port: port, method: "POST", body: #"{"ids": ["way/9"]}"#).status == 422)
        #expect(try get("/select", port: port, method: "DELETE").status == 200)
        #expect(waitUntil { first.withLock { $0 } == [["node/2"], []] && second.withLock { $0 } == [["node/2"], []] })
        // A value the program sets is not echoed back to it: after it, only a barrier's worth.
        selection.value = ["node/1"]
        queue.sync {}
        #expect(first.withLock { $0.count } == 2)
        await view.stop()
    }

    @Test("a server does not keep its stopped view alive: once the program lets it go, /state says gone")
    func modelLetsViewGo() async throws {
        let directory = try PackagePaths.temporaryDirectory("model-lets-go")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model: GeoARLiveViewModel
        weak var weakView: GeoARView?
        do {
            let view = GeoARView(
                frame: .full, session: ARSession(mapData: MapData(pointsOfInterest: [])),
                configuration: GeoARConfiguration(
                    source: .footage(
                        path: directory.appendingPathComponent("never-read.y4m").path, timing: FootageTiming()),
                    output: .footage(.y4mFile(directory.appendingPathComponent("out.y4m").path), workers: 1),
                    handlerQueue: DispatchQueue(label: "model-lets-go"), messages: .silent))
            weakView = view
            model = GeoARLiveViewModel(view: view, device: "none", source: "none", broadcast: FrameBroadcast())
            view.present()
            #expect(waitUntil { view.phase == LoadPhase.waitingForLocationSource })
            #expect(model.state(clients: []).phase == "waiting for a location source")
            await view.stop()
        }
        #expect(waitUntil { weakView == nil }, "the model kept the stopped view")
        let server = try Self.started(model)
        defer { server.stop() }
        let state = try JSONSerialization.jsonObject(with: Data(try get("/state", port: server.address.port).body))
        #expect((state as? [String: Any])?["phase"] as? String == "gone")
        #expect(model.select(["node/1"]) == ["node/1"], "a view that is gone knows no points of interest")
    }

    @Test("/select takes JSON ids, DELETE clears; bad JSON is 400, unknown ids 422, a huge body 413")
    func select() throws {
        let model = Model()
        let server = try Self.started(model)
        defer { server.stop() }
        let port = server.address.port
        let chosen = try get("/select", port: port, method: "POST", body: #"{"ids": ["node/2", "node/1"]}"#)
        #expect(chosen.status == 200)
        #expect(chosen.text == #"{"selected":["node/1","node/2"]}"#)
        #expect(model.selection.withLock { $0 } == ["node/1", "node/2"])
        let state = try JSONSerialization.jsonObject(with: Data(try get("/state", port: port).body)) as? [String: Any]
        #expect(state?["selected"] as? [String] == ["node/1", "node/2"])

        let unknown = try get("/select", port: port, method: "POST", body: #"{"ids": ["node/1", "way/9"]}"#)
        #expect(unknown.status == 422)
        #expect(unknown.text.contains("way/9"))
        #expect(model.selection.withLock { $0 } == ["node/1", "node/2"], "nothing changed")
        for bad in [#"{"ids": "node/1"}"#, "not json", #"{"names": []}"#, ""] {
            let refused = try get("/select", port: port, method: "POST", body: bad)
            #expect(refused.status == 400, "\(bad)")
        }
        let huge = "{\"ids\": [\"" + String(repeating: "x", count: 100_000) + "\"]}"
        #expect(try get("/select", port: port, method: "POST", body: huge).status == 413)

        let cleared = try get("/select", port: port, method: "DELETE")
        #expect(cleared.status == 200)
        #expect(model.selection.withLock { $0 }.isEmpty)
    }

    @Test("malformed and oversized requests are refused, and serving goes on")
    func malformed() throws {
        let server = try Self.started()
        defer { server.stop() }
        let port = server.address.port
        let garbage = try RawHTTPClient(port: port)
        garbage.send("THIS IS NOT HTTP\r\n\r\n")
        let answer = garbage.response(timeout: .seconds(10))
        #expect(answer.map { $0.status == 400 } ?? true, "a 400 or a closed connection")
        let big = try RawHTTPClient(port: port)
        big.send("GET /state HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 40_000) + "\r\n\r\n")
        let refused = big.response(timeout: .seconds(10))
        #expect(refused.map { [413, 414, 431].contains($0.status) } ?? true, "\(refused?.status ?? 0)")
        let truncated = try RawHTTPClient(port: port)
        truncated.send("GET /sta")
        truncated.close()
        #expect(try get("/state", port: port).status == 200)
    }

    @Test("ffmpeg reads /stream as MJPEG: every part a whole JPEG, with X-Timestamp")
    func streamToFFmpeg() async throws {
        let server = try Self.started()
        defer { server.stop() }
        let frames = try (0..<8).map { try Self.jpeg($0 * 30) }
        let publishing = Publisher(server.broadcast, frames: frames)
        defer { publishing.stop() }
        await #expect(
            try Self.framesFFmpegReads("http://127.0.0.1:\(server.address.port)/stream?key=ffmpeg", count: 20) == 20)
    }

    @Test("the raw stream: multipart parts with Content-Length and X-Timestamp; ?key= names the client in /state")
    func rawStream() throws {
        let server = try Self.started()
        defer { server.stop() }
        let frame = try Self.jpeg(128)
        server.broadcast.publish(frame, capturedAt: Date(timeIntervalSince1970: 1_000))
        let client = try RawHTTPClient(port: server.address.port)
        client.send("GET /?action=stream&key=kitchen HTTP/1.0\r\n\r\n")
        let received = client.read(timeout: .seconds(10)) { $0.count > frame.count + 200 }
        let response = try #require(RawHTTPResponse(bytes: received))
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "multipart/x-mixed-replace;boundary=arcaptureframe")
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
        #expect(text.hasPrefix("--arcaptureframe\r\nContent-Type: image/jpeg\r\nContent-Length: \(frame.count)\r\n"))
        #expect(text.contains("X-Timestamp: 1000.000000\r\n\r\n"))
        let state = try JSONSerialization.jsonObject(with: Data(try get("/state", port: server.address.port).body))
        let clients = (state as? [String: Any])?["clients"] as? [[String: Any]]
        #expect(clients?.count == 1)
        #expect(clients?.first?["key"] as? String == "kitchen")
        // A second frame, sent whole after the client waited for it: two frames sent, not more.
        let second = try Self.jpeg(20)
        server.broadcast.publish(second, capturedAt: Date(timeIntervalSince1970: 1_001))
        let more = client.read(timeout: .seconds(10)) { $0.count > second.count + 80 }
        #expect(more.count > second.count)
        #expect(
            waitUntil(seconds: 30) { server.streamClients.first?.framesSent == 2 },
            "\(server.streamClients.map(\.framesSent))")
    }

    @Test("a client that never reads holds back no one: another still gets every frame it asks for")
    func slowClient() async throws {
        let server = try Self.started()
        defer { server.stop() }
        let frames = try (0..<8).map { try Self.jpeg($0 * 30) }
        let publishing = Publisher(server.broadcast, frames: frames)
        defer { publishing.stop() }
        let stalled = try RawHTTPClient(port: server.address.port)
        stalled.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(waitUntil(seconds: 30) { server.streamClients.count == 1 })
        await #expect(try Self.framesFFmpegReads("http://127.0.0.1:\(server.address.port)/stream", count: 60) == 60)
        stalled.close()
    }

    @Test("stop ends every stream, those waiting for a frame too, and returns")
    func stopWithWaitingClients() throws {
        let server = try Self.started()
        let frame = try Self.jpeg(200)
        server.broadcast.publish(frame, capturedAt: Date())
        let clients = try (0..<5).map { _ in try RawHTTPClient(port: server.address.port) }
        for client in clients { client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n") }
        // Each has the one frame and waits, suspended, for the next.
        let firsts = clients.map { client in client.read(timeout: .seconds(20)) { $0.count > frame.count + 150 } }
        #expect(firsts.allSatisfy { $0.count > frame.count })
        server.stop()
        for client in clients {
            let rest = client.read(timeout: .seconds(20))
            _ = rest
            #expect(client.read(timeout: .seconds(1)).isEmpty, "the connection is closed")
        }
        #expect(server.broadcast.isClosed)
    }

    @Test("--max-clients: a connection beyond the limit is not served until another closes")
    func maxClients() throws {
        let server = try Self.started(limits: .init(maxClients: 2, idleTimeoutSeconds: 30))
        defer { server.stop() }
        // Frames flow, as from a camera: a client that went away is noticed at the next frame it
        // is sent (one suspended waiting for a frame is not polled).
        let publishing = Publisher(server.broadcast, frames: [try Self.jpeg(10), try Self.jpeg(90)])
        defer { publishing.stop() }
        let first = try RawHTTPClient(port: server.address.port)
        first.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        let second = try RawHTTPClient(port: server.address.port)
        second.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(waitUntil(seconds: 30) { server.streamClients.count == 2 })
        // libmicrohttpd stops accepting at the limit: the kernel holds the third in its backlog.
        let third = try RawHTTPClient(port: server.address.port)
        third.send("GET /state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(third.read(timeout: .seconds(2)).isEmpty, "no answer while two are connected")
        first.close()
        #expect(third.response()?.status == 200, "served once the first went")
        #expect(waitUntil(seconds: 30) { server.streamClients.count == 1 })
    }

    @Test(
        "a client that sends part of a request and goes at once is closed when it goes, not at the idle timeout",
        arguments: [
            "GET /sta", "GET /state HTTP/1.1\r\nHost: x\r\n",
            "POST /select HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{\"ids\"",
        ])
    func partialRequestThenGone(_ request: String) throws {
        // An hour's idle timeout: only the client going can close these. (libmicrohttpd's epoll
        // mode held each until the timeout when the request's bytes and the FIN came in one read.)
        let server = try Self.started(limits: .init(maxClients: 64, idleTimeoutSeconds: 3600))
        defer { server.stop() }
        for _ in 0..<20 {
            let client = try RawHTTPClient(port: server.address.port)
            client.send(request)
            client.close()
        }
        #expect(
            waitUntil(seconds: 60) { server.connectionCount == 0 }, "\(server.connectionCount) connections still open")
        #expect(try get("/state", port: server.address.port).status == 200)
    }

    @Test("--max-clients-per-address: one more from the same address is closed at once; the others are served")
    func maxClientsPerAddress() throws {
        let server = try Self.started(limits: .init(maxClients: 16, idleTimeoutSeconds: 3600, maxClientsPerAddress: 2))
        defer { server.stop() }
        let port = server.address.port
        let held = try (0..<2).map { _ in try RawHTTPClient(port: port) }
        for client in held { client.send("GET /state HTTP/1.1\r\nHost: x\r\n") }
        #expect(waitUntil(seconds: 30) { server.connectionCount == 2 })
        let third = try RawHTTPClient(port: port)
        #expect(third.read(timeout: .seconds(30)).isEmpty)
        #expect(third.closedByServer, "closed without an answer")
        // The two held are untouched: each finishes its request and is answered.
        for client in held {
            client.send("Connection: close\r\n\r\n")
            #expect(client.response()?.status == 200)
        }
        #expect(waitUntil(seconds: 30) { server.connectionCount == 0 })
        #expect(try get("/state", port: port).status == 200, "served again once the two went")
    }

    @Test("--auth: no credentials and wrong ones are 401 with WWW-Authenticate, the right ones 200, the stream too")
    func authentication() throws {
        let server = LiveViewServer(
            address: try ServerAddress(parsing: "127.0.0.1:0"), broadcast: FrameBroadcast(), model: Model(),
            authentication: BasicAuthentication(accounts: ["ada:lovelace"]))
        try server.start()
        defer { server.stop() }
        server.broadcast.publish(try Self.jpeg(50), capturedAt: Date())
        func request(_ path: String, _ credentials: String?) throws -> RawHTTPResponse {
            let client = try RawHTTPClient(port: server.address.port)
            var text = "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            if let credentials { text += "Authorization: Basic \(Data(credentials.utf8).base64EncodedString())\r\n" }
            client.send(text + "\r\n")
            return try #require(client.response())
        }
        for path in ["/state", "/snapshot", "/stream", "/"] {
            let none = try request(path, nil)
            #expect(none.status == 401, "\(path)")
            #expect(none.headers["www-authenticate"] == #"Basic realm="arcapture", charset="UTF-8""#)
            #expect(try request(path, "ada:wrong").status == 401, "\(path)")
        }
        #expect(try request("/state", "ada:lovelace").status == 200)
        #expect(try request("/snapshot", "ada:lovelace").body.count > 100)
        let stream = try RawHTTPClient(port: server.address.port)
        stream.send(
            "GET /stream HTTP/1.1\r\nHost: x\r\nAuthorization: Basic \(Data("ada:lovelace".utf8).base64EncodedString())\r\n\r\n"
        )
        let head = stream.read(timeout: .seconds(10)) { RawHTTPResponse(bytes: $0) != nil }
        #expect(RawHTTPResponse(bytes: head)?.status == 200)
    }

    @Test("a second server on a port already taken says so")
    func portTaken() throws {
        let server = try Self.started()
        defer { server.stop() }
        let second = LiveViewServer(
            address: try ServerAddress(parsing: "127.0.0.1:\(server.address.port)"), broadcast: FrameBroadcast(),
            model: Model())
        #expect(throws: ServerError.self) { try second.start() }
    }
}

/// Publishes `frames` in turn, as fast as the broadcast takes them (each a new frame), on a
/// thread of its own until stopped.
final class Publisher: Sendable {
    private let running = Locked(true)

    init(_ broadcast: FrameBroadcast, frames: [[UInt8]]) {
        Thread.detachNewThread { [running] in
            var index = 0
            while running.withLock({ $0 }) {
                broadcast.publish(frames[index % frames.count], capturedAt: Date())
                index += 1
                usleep(10_000)
            }
        }
    }

    func stop() { running.withLock { $0 = false } }
}
