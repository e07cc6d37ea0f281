import GeoAR

/// What `serve` adds to a live view: where to listen, the limits, and the broadcast the frames go to.
struct ServeSetup: Sendable {
    var address: ServerAddress
    var limits: LiveViewServer.Limits
    var broadcast: FrameBroadcast
    /// `--auth`'s file, read into ``authentication`` before the server starts.
    var authFile: String?
    var authentication: BasicAuthentication?
    /// `--idle-slowdown`: one frame a second while no client watches the stream.
    var idleSlowdown = false

    /// Says where the server listens (with the port chosen for port 0), and warns when anyone on
    /// the network can connect.
    func announce(_ listening: ServerAddress) {
        let host = listening.isIPv6 ? "[\(listening.host)]" : listening.host
        Terminal.note("serving http://\(host):\(listening.port)/ (the stream at /stream, a frame at /snapshot)")
        if !listening.isLoopback && authentication == nil {
            Terminal.warning(
                "listening on \(listening), beyond this machine, without --auth: anyone who can reach it sees the camera"
            )
        }
    }
}
