import ArcaptureCore
import CaptureKit
import GeoAR
import LiveViewHTTP

/// `arcapture serve`: the live annotated view over HTTP, for a browser, VLC, ffmpeg or a dashboard.
enum ServeCommand {
    /// Where the server listens; loopback unless asked otherwise.
    static let listen = Option<ServerAddress>(
        "listen", "ADDR:PORT", defaultText: ServerAddress.loopbackDefault.description,
        help: "Where to listen: 0.0.0.0:8080 for every network, [::1]:8080 for IPv6, port 0 for any free port."
    ) { text throws(UsageError) in
        do throws(ServerError) {
            return try ServerAddress(parsing: text)
        } catch {
            throw UsageError("--listen: \(error.description)")
        }
    }.defaulting(to: .loopbackDefault)
    static let auth = Option.text(
        "auth", "FILE",
        help: "Ask for a user and password (HTTP Basic): FILE has user:password lines. Use it beyond loopback.")
    static let maxClients = Option.integer(
        "max-clients", "N", in: 1...10_000, default: 16, help: "Connections at once; more wait until one closes.")
    static let maxClientsPerAddress = Option.integer(
        "max-clients-per-address", "N", in: 1...10_000, defaultText: "no bound",
        help: "Connections at once from one client address; more are closed at once.")
    static let idleTimeout = Option.integer(
        "idle-timeout", "SECONDS", in: 1...86_400, default: 30,
        help: "Close a connection that sends an unfinished request for this long.")
    static let tlsCert = Option.text(
        "tls-cert", "FILE", help: "Serve HTTPS with this certificate (PEM); needs --tls-key.")
    static let tlsKey = Option.text("tls-key", "FILE", help: "The certificate's private key (PEM).")
    static let idleSlowdown = Flag(
        "idle-slowdown",
        help: "With no one watching /stream, draw and encode one frame a second; the first client restores the rate.")

    static let spec = CommandSpec(
        name: "serve",
        overview: """
            Serve the camera's annotated frames over HTTP: an MJPEG stream, snapshots, the view's state \
            as JSON and a page to watch it and select points of interest in.
            """,
        usage: """
            [--listen ADDR:PORT] [--device PATH] [--location SOURCE] [--pois FILE] [more options]
            """,
        arguments: [],
        options: [
            listen.spec, auth.spec, maxClients.spec, maxClientsPerAddress.spec, idleTimeout.spec, tlsCert.spec,
            tlsKey.spec, idleSlowdown.spec,
        ]
            + CaptureOptions.serveSpecs + LiveOverlayOptions.specs,
        discussion: """
            ENDPOINTS:
              /                  a page: the stream, the state, navigation, the points of interest to select
              /stream            multipart/x-mixed-replace MJPEG (also /?action=stream); ?key=NAME names the client
              /snapshot          the newest frame as one JPEG (also /?action=snapshot), with X-Timestamp
              /state             JSON, schema arcapture.state/1 (docs/json.md)
              /events            Server-Sent Events: phase, coordinate, navigation and selection changes
              /select            POST {"ids": [...]} selects points of interest; DELETE clears the selection

            With --auth FILE every request needs a user and password from FILE (HTTP Basic, compared in \
            constant time). --tls-cert and --tls-key make it HTTPS only (GnuTLS): use them with --auth \
            beyond loopback, or the passwords cross the network readable. Listening beyond loopback \
            without --auth, or with it but without TLS, draws a warning.

            Each frame is encoded once, whatever the number of clients; a client that reads slowly skips \
            to the newest frame and never slows the camera or the others. While no camera frame comes \
            (the camera unplugged, with --reconnect, or starting), a frame saying so is sent once a second \
            after 3 s, so clients stay connected. It listens on loopback unless --listen says otherwise.

            EXIT STATUS:
              0    stopped by Ctrl-C, SIGTERM or SIGHUP (a server's normal end)
              64   bad command line
              65   the --auth file is malformed (its line is named), or a --tls file is not PEM
              66   the --auth or a --tls file cannot be read
              69   the camera is missing or went away (without --reconnect), the address cannot be listened on, \
            or GnuTLS refuses the certificate
              74   the stream failed or stalled
              75   the camera is busy
              77   permission denied

            EXAMPLES:
              arcapture serve --location gpsd:// --pois pois.geojson
              arcapture serve --listen 0.0.0.0:8080 --reconnect
              ffplay http://127.0.0.1:8080/stream
            """)

    static func run(_ arguments: [String]) async -> ExitStatus {
        let options: CaptureOptions
        let overlay: LiveOverlayOptions
        let setup: ServeSetup
        do throws(UsageError) {
            let parsed = try ArgumentParser.parse(arguments, spec: spec)
            let broadcast = FrameBroadcast()
            options = try CaptureOptions(parsed, broadcast: broadcast)
            overlay = try LiveOverlayOptions(parsed)
            let address = try parsed.value(Self.listen)
            let limits = LiveViewServer.Limits(
                maxClients: try parsed.value(Self.maxClients), idleTimeoutSeconds: try parsed.value(Self.idleTimeout),
                maxClientsPerAddress: try parsed.value(Self.maxClientsPerAddress))
            let tlsFiles: (certificate: String, key: String)?
            switch (parsed.text(Self.tlsCert), parsed.text(Self.tlsKey)) {
            case (let certificate?, let key?): tlsFiles = (certificate, key)
            case (nil, nil): tlsFiles = nil
            case (nil, _?): throw UsageError("--tls-key needs --tls-cert (the certificate it belongs to)")
            case (_?, nil): throw UsageError("--tls-cert needs --tls-key (the certificate's private key)")
            }
            setup = ServeSetup(
                address: address, limits: limits, broadcast: broadcast, authFile: parsed.text(Self.auth),
                tlsFiles: tlsFiles, idleSlowdown: parsed.isSet(Self.idleSlowdown))
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        var serving = setup
        do throws(InputFileError) {
            if let file = setup.authFile { serving.authentication = try BasicAuthentication(file: file) }
            if let files = setup.tlsFiles {
                serving.tls = try TLSCredentials(certificateFile: files.certificate, keyFile: files.key)
            }
        } catch {
            Terminal.error(error.description)
            return error.cannotBeOpened ? .noInput : .dataError
        }
        return await CaptureCommand.live(options, overlay: overlay, serving: serving)
    }
}
