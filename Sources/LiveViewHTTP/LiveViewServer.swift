import ArcaptureCore
import CMicroHTTPD
import CaptureKit
import Foundation
import GeoAR

/// The HTTP server of `arcapture serve`, on GNU libmicrohttpd: `/stream` (MJPEG as
/// `multipart/x-mixed-replace`), `/snapshot`, `/state`, `/events` (Server-Sent Events), `/select`
/// and the page at `/`.
///
/// Frames come from a `FrameBroadcast`: encoded once, shared by every client; a client that
/// cannot keep up skips to the newest frame. libmicrohttpd runs one polling thread (epoll); a
/// stream client with nothing new to send is suspended there and resumed by the next frame, so
/// idle clients cost no CPU and no thread. `/events` clients are suspended the same way until the
/// `EventFeed` has a change for them.
///
/// This type is thread-safe.
public final class LiveViewServer: @unchecked Sendable {
    /// Limits on clients and requests.
    public struct Limits: Sendable {
        /// Connections at once (streams, page loads and API calls together).
        public var maxClients: Int
        /// Seconds a connection may send nothing (a request never finished) before it is closed.
        /// Stream clients waiting for a frame are not idle.
        public var idleTimeoutSeconds: Int
        /// Connections at once from one client address; nil: no bound beyond ``maxClients``.
        /// Unbounded by default because behind a reverse proxy, or on loopback, every client has
        /// the same address; on a shared network it keeps one host from taking every slot.
        public var maxClientsPerAddress: Int?

        /// `--max-clients` 16 and a 30-second idle timeout, as µStreamer's defaults are close to,
        /// and no bound per client address.
        public init(maxClients: Int = 16, idleTimeoutSeconds: Int = 30, maxClientsPerAddress: Int? = nil) {
            self.maxClients = maxClients
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.maxClientsPerAddress = maxClientsPerAddress
        }
    }

    /// The largest body `POST /select` takes.
    static let bodyLimit = 64 * 1024
    /// What one connection may hold of its request line and headers (beyond: 431 or 414).
    static let requestMemoryLimit = 32 * 1024

    /// Where it listens (with the port the system chose, when asked for 0, once started).
    public var address: ServerAddress { listening.withLock { $0 } }
    private let listening: Locked<ServerAddress>
    /// The frames it serves.
    public let broadcast: FrameBroadcast
    private let router: LiveViewRouter
    private let events: EventFeed
    private let placeholders: PlaceholderPublisher?
    /// The certificate and key it speaks HTTPS with; nil for plain HTTP.
    public let tls: TLSCredentials?
    private let limits: Limits
    private let daemon: Locked<OpaquePointer?> = Locked(nil)
    private let clients = Locked([ObjectIdentifier: StreamClient]())
    private let suspensions = Locked(0)
    /// The last 8,192 times from a frame's publication to its last byte handed to a client's
    /// socket, in seconds (a ring: bounded however long it serves).
    private let deliveries = Locked((times: [Double](), next: 0))

    /// A server of `broadcast`'s frames and `model`'s state, not yet listening; with
    /// `authentication`, every request must name one of its accounts (else 401). When no camera
    /// frame has come for `placeholderDelay` (nil: never), a frame saying why is sent once a
    /// second instead, so clients stay connected while the camera is away. With `tls` it speaks
    /// HTTPS only.
    public init(
        address: ServerAddress, broadcast: FrameBroadcast, model: any LiveViewModel, limits: Limits = Limits(),
        authentication: BasicAuthentication? = nil, placeholderDelay: Duration? = .seconds(3),
        tls: TLSCredentials? = nil
    ) {
        self.tls = tls
        listening = Locked(address)
        self.broadcast = broadcast
        self.limits = limits
        router = LiveViewRouter(model: model, broadcast: broadcast, authentication: authentication)
        events = EventFeed(model: model)
        placeholders = placeholderDelay.map { PlaceholderPublisher(broadcast: broadcast, model: model, delay: $0) }
    }

    /// Starts listening (once; calling it again does nothing).
    ///
    /// - Throws: ``ServerError/cannotListen(_:_:)`` (the port is taken, the address is not this
    ///   machine's), ``ServerError/tlsRefused(_:)`` (GnuTLS took neither the certificate nor the
    ///   key, or this libmicrohttpd has no TLS).
    public func start() throws(ServerError) {
        guard daemon.withLock({ $0 }) == nil else { return }  // started already
        if let tls, arcapture_mhd_has_tls() == 0 {
            throw .tlsRefused("\(tls): this libmicrohttpd was built without TLS")
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        errno = 0
        let started = address.withSocketAddress { socketAddress in
            arcapture_mhd_start(
                socketAddress, Self.accessHandler, context, Self.completedHandler, context,
                UInt32(max(1, limits.maxClients)), UInt32(max(0, limits.maxClientsPerAddress ?? 0)),
                UInt32(max(1, limits.idleTimeoutSeconds)),
                Self.requestMemoryLimit, tls?.certificate, tls?.key)
        }
        guard let started else {
            // A system error sets errno; GnuTLS refusing the certificate or key does not.
            if let tls, errno == 0 {
                throw .tlsRefused("\(tls): GnuTLS refused them (is the key the certificate's?)")
            }
            throw .cannotListen(address, String(cString: strerror(errno)))
        }
        daemon.withLock { $0 = started }
        let port = arcapture_mhd_port(started)
        listening.withLock { $0 = $0.with(port: port) }
        events.start()
        placeholders?.start()
    }

    /// Ends every stream and stops listening. Waits (up to 2 s) for suspended streams to be resumed
    /// and ended first: libmicrohttpd must not be stopped with a connection still suspended.
    public func stop() {
        guard
            let running = daemon.withLock({ daemon -> OpaquePointer? in
                defer { daemon = nil }
                return daemon
            })
        else { return }
        placeholders?.stop()
        broadcast.close()
        events.close()
        let deadline = ContinuousClock.now + .seconds(2)
        while suspensions.withLock({ $0 }) > 0 && ContinuousClock.now < deadline {
            usleep(1000)
        }
        MHD_stop_daemon(running)
    }

    deinit { stop() }

    /// Connections open now, of every kind (0 when not listening).
    public var connectionCount: Int {
        daemon.withLock { daemon in daemon.map { Int(arcapture_mhd_connections($0)) } ?? 0 }
    }

    /// The connected `/events` clients.
    public var eventClientCount: Int { events.clientCount }

    /// The times from a frame's publication to its last byte handed to a client's socket (one
    /// per frame and client), the latest 8,192 of them, in seconds, in no order: what the
    /// benchmark reports. Emptied by reading.
    package func takeDeliveryTimes() -> [Double] {
        deliveries.withLock { ring in
            defer { ring = ([], 0) }
            return ring.times
        }
    }

    /// The connected `/stream` clients.
    public var streamClients: [LiveViewState.Client] {
        let now = Date()
        return clients.withLock { Array($0.values) }
            .sorted { $0.connectedAt < $1.connectedAt }
            .map { client in
                LiveViewState.Client(
                    key: client.key, peer: client.peer, connectedSeconds: now.timeIntervalSince(client.connectedAt),
                    framesSent: client.framesSent.withLock { $0 })
            }
    }

    // MARK: libmicrohttpd's callbacks (all on its polling thread)

    private static let accessHandler: MHD_AccessHandlerCallback = {
        context, connection, url, method, _, uploadData, uploadSize, requestContext in
        guard let context, let connection, let url, let method, let uploadSize, let requestContext else {
            return arcapture_mhd_no
        }
        let server = Unmanaged<LiveViewServer>.fromOpaque(context).takeUnretainedValue()
        return server.handle(
            connection, url: String(cString: url), method: String(cString: method), upload: uploadData,
            uploadSize: uploadSize, requestContext: requestContext)
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
        guard let requestContext, let pointer = requestContext.pointee else { return }
        Unmanaged<RequestContext>.fromOpaque(pointer).release()
        requestContext.pointee = nil
    }

    /// `context` is a retained ``StreamingResponse`` (a ``StreamClient`` or an ``EventStreamClient``).
    private static let streamReader: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer,
            let response = Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue() as? any StreamingResponse
        else { return arcapture_mhd_end_with_error }
        return response.read(into: buffer, capacity: capacity)
    }

    private static let streamEnded: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let response = Unmanaged<AnyObject>.fromOpaque(context).takeRetainedValue() as? any StreamingResponse
        response?.ended()
    }

    private func handle(
        _ connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        // The first call brings the headers; a body follows in further calls, then one with none.
        guard let pointer = requestContext.pointee else {
            requestContext.pointee = Unmanaged.passRetained(RequestContext()).toOpaque()
            if method == "POST" || method == "PUT" { return arcapture_mhd_yes }
            return respond(connection, url: url, method: method, context: RequestContext())
        }
        let request = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let upload, request.body.count + uploadSize.pointee <= Self.bodyLimit {
                request.body += UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee)
            } else {
                request.bodyTooLarge = true
            }
            uploadSize.pointee = 0
            return arcapture_mhd_yes
        }
        return respond(connection, url: url, method: method, context: request)
    }

    private func respond(_ connection: OpaquePointer, url: String, method: String, context: RequestContext)
        -> MHD_Result
    {
        var request = LiveViewRequest(method: method, path: url, body: context.body, bodyTooLarge: context.bodyTooLarge)
        if let value = MHD_lookup_connection_value(connection, arcapture_mhd_header, "Authorization") {
            request.authorization = String(cString: value)
        }
        for name in ["action", "key"] {
            if let value = MHD_lookup_connection_value(connection, arcapture_mhd_query_argument, name) {
                request.query[name] = String(cString: value)
            }
        }
        switch router.route(request, clients: { streamClients }) {
        case .respond(let response):
            return queue(response, on: connection)
        case .stream(let key):
            return startStream(on: connection, key: key)
        case .events:
            return startEvents(on: connection)
        }
    }

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), arcapture_mhd_copy)
        }
        guard let made else { return arcapture_mhd_no }
        for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        return result
    }

    private func startStream(on connection: OpaquePointer, key: String?) -> MHD_Result {
        let client = StreamClient(
            connection: connection, key: key, peer: Self.peer(of: connection), broadcast: broadcast,
            suspensions: suspensions,
            delivered: { [weak self] time in self?.recordDelivery(time) },
            ended: { [weak self] client in
                _ = self?.clients.withLock { $0.removeValue(forKey: ObjectIdentifier(client)) }
            })
        clients.withLock { $0[ObjectIdentifier(client)] = client }
        return queueStreaming(
            client, on: connection,
            headers: [
                ("Content-Type", "multipart/x-mixed-replace;boundary=\(BroadcastFrame.boundary)"),
                ("Cache-Control", "no-store, no-cache, must-revalidate, max-age=0"), ("Pragma", "no-cache"),
            ])
    }

    private func recordDelivery(_ time: Duration) {
        deliveries.withLock { ring in
            if ring.times.count < 8192 {
                ring.times.append(time.seconds)
            } else {
                ring.times[ring.next] = time.seconds
                ring.next = (ring.next + 1) % 8192
            }
        }
    }

    private func startEvents(on connection: OpaquePointer) -> MHD_Result {
        let client = EventStreamClient(
            connection: connection, initial: events.current(), suspensions: suspensions,
            ended: { [weak self] client in self?.events.remove(client) })
        events.add(client)
        return queueStreaming(
            client, on: connection,
            headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store")])
    }

    /// Queues a response whose body `body` produces, holding it retained until libmicrohttpd
    /// frees the response (``streamEnded``); `ended()` also runs when queueing fails.
    private func queueStreaming(
        _ body: any StreamingResponse, on connection: OpaquePointer, headers: [(String, String)]
    ) -> MHD_Result {
        let context = Unmanaged.passRetained(body as AnyObject).toOpaque()
        guard
            let response = MHD_create_response_from_callback(
                arcapture_mhd_size_unknown, 64 * 1024, Self.streamReader, context, Self.streamEnded)
        else {
            Unmanaged<AnyObject>.fromOpaque(context).release()
            body.ended()
            return arcapture_mhd_no
        }
        for (name, value) in headers { MHD_add_response_header(response, name, value) }
        let result = MHD_queue_response(connection, 200, response)
        MHD_destroy_response(response)
        return result
    }

    private static func string(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `127.0.0.1:50312`: the client's address, for `/state`.
    private static func peer(of connection: OpaquePointer) -> String {
        guard let info = arcapture_mhd_client_address(connection) else { return "?" }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let length = socklen_t(
            info.pointee.sa_family == sa_family_t(AF_INET6)
                ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        guard
            getnameinfo(
                info, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                NI_NUMERICHOST | NI_NUMERICSERV) == 0
        else { return "?" }
        let name = Self.string(host)
        let port = Self.string(service)
        return name.contains(":") ? "[\(name)]:\(port)" : "\(name):\(port)"
    }
}
