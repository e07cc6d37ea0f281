import GeoAR
import LiveViewHTTP

/// What `serve` adds to a live view: where to listen, the limits, and the broadcast the frames go to.
struct ServeSetup: Sendable {
    var address: ServerAddress
    var limits: LiveViewServer.Limits
    var broadcast: FrameBroadcast
    /// `--auth`'s file, read into ``authentication`` before the server starts.
    var authFile: String?
    var authentication: BasicAuthentication?
    /// `--tls-cert` and `--tls-key`'s files, read into ``tls`` before the server starts.
    var tlsFiles: (certificate: String, key: String)?
    var tls: TLSCredentials?
    /// `--idle-slowdown`: one frame a second while no client watches the stream.
    var idleSlowdown = false

    /// Says where the server listens (with the port chosen for port 0), and warns when anyone on
    /// the network can connect.
    func announce(_ listening: ServerAddress) {
        let host = listening.isIPv6 ? "[\(listening.host)]" : listening.host
        let scheme = tls == nil ? "http" : "https"
        Terminal.note("serving \(scheme)://\(host):\(listening.port)/ (the stream at /stream, a frame at /snapshot)")
        if !listening.isLoopback && authentication == nil {
            Terminal.warning(
                "listening on \(listening), beyond this machine, without --auth: anyone who can reach it sees the camera"
            )
        } else if !listening.isLoopback && tls == nil {
            Terminal.warning(
                "listening on \(listening), beyond this machine, with --auth but without --tls-cert: "
                    + "the passwords cross the network readable")
        }
    }
}
