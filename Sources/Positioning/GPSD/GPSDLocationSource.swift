import ArcaptureCore
import Foundation

/// Positions from gpsd, the daemon every Linux GPS setup runs, over its JSON protocol.
///
/// It connects to gpsd (127.0.0.1:2947 unless told otherwise), asks for reports with
/// `?WATCH={"enable":true,"json":true}`, and turns TPV and ATT reports into events (see
/// `GPSDMessageDecoder` for how one epoch's TPVs merge). Its status tells the two problems apart:
/// ``LocationStatus/unavailable(_:)`` when gpsd cannot be reached (not running, wrong port), and
/// ``LocationStatus/noFix`` when gpsd answers but its receiver has no position yet.
///
/// When gpsd goes away (restarted, upgraded), the source reconnects by itself, waiting 0.25 s,
/// then twice as long after each failure, up to 5 s between attempts.
///
/// Events arrive on the source's own thread.
public final class GPSDLocationSource: LocationSource {
    /// gpsd's host name or address.
    public let host: String
    /// gpsd's TCP port.
    public let port: UInt16
    private let hub = LocationEventHub(status: .starting)
    private let thread = SourceThread(name: "arcapture.gpsd")
    /// How long one connection attempt may take before it counts as failed. A test lengthens it
    /// to tell "a stop ends the attempt at once" from "the stop waited the attempt out" without
    /// timing anything short.
    let connectTimeoutMilliseconds: Int32

    /// gpsd's registered port.
    public static let defaultPort: UInt16 = 2947

    /// Creates a source for gpsd at `host`:`port`; nothing happens until ``start()``.
    public convenience init(host: String = "127.0.0.1", port: UInt16 = GPSDLocationSource.defaultPort) {
        self.init(host: host, port: port, connectTimeoutMilliseconds: 3000)
    }

    /// Creates a source whose connection attempts last at most `connectTimeoutMilliseconds`.
    init(host: String, port: UInt16, connectTimeoutMilliseconds: Int32) {
        self.host = host
        self.port = port
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
    }

    /// Parses `gpsd://`, `gpsd://HOST`, `gpsd://HOST:PORT` or `gpsd://[IPv6]:PORT`; nil for anything
    /// else.
    public convenience init?(url: String) {
        guard url.hasPrefix("gpsd://") else { return nil }
        var rest = Substring(url.dropFirst("gpsd://".count))
        if rest.hasSuffix("/") { rest.removeLast() }
        var host = "127.0.0.1"
        var port = Self.defaultPort
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let value = UInt16(rest.dropFirst()), value > 0 else { return nil }
                port = value
            }
        } else if !rest.isEmpty {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, !parts[0].isEmpty else { return nil }
            host = String(parts[0])
            if parts.count == 2 {
                guard let value = UInt16(parts[1]), value > 0 else { return nil }
                port = value
            }
        }
        self.init(host: host, port: port)
    }

    /// `gpsd://HOST:PORT`.
    public var name: String { host.contains(":") ? "gpsd://[\(host)]:\(port)" : "gpsd://\(host):\(port)" }

    /// The status now.
    public var status: LocationStatus { hub.status }

    /// The newest fix.
    public var latestFix: LocationFix? { hub.latestFix }

    /// Adds an observer.
    public func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        hub.addObserver(observer)
    }

    /// Connects (on the source's thread) and keeps connecting until stopped.
    public func start() {
        let label = "gpsd at \(host.contains(":") ? "[\(host)]" : host):\(port)"
        let host = self.host
        let port = self.port
        let hub = self.hub
        let backOff = BackOff()
        let timeout = connectTimeoutMilliseconds
        thread.start { thread in
            GPSDLocationSource.session(
                host: host, port: port, label: label, hub: hub, thread: thread, backOff: backOff,
                connectTimeoutMilliseconds: timeout)
        }
    }

    /// Disconnects and waits for the source's thread to end.
    public func stop() {
        thread.stop()
    }

    /// Asks gpsd for reports as JSON.
    private static let watchRequest = "?WATCH={\"enable\":true,\"json\":true};\n"

    /// One connection: connect, watch, read until gpsd goes away or the source stops; then wait
    /// before the next attempt.
    private static func session(
        host: String, port: UInt16, label: String, hub: LocationEventHub, thread: SourceThread, backOff: BackOff,
        connectTimeoutMilliseconds: Int32
    ) {
        let connection: TCPConnection
        // A stop during a connection attempt ends it at once (Ctrl-C waited out the 3 s timeout).
        switch TCPConnection.connect(
            host: host, port: port, timeoutMilliseconds: connectTimeoutMilliseconds, isCancelled: { thread.isStopping })
        {
        case .failure(let problem):
            guard !thread.isStopping else { return }
            hub.publish(.status(.unavailable("cannot connect to \(label): \(problem)")))
            thread.sleep(backOff.next())
            return
        case .success(let connected): connection = connected
        }
        if case .failure(let error) = connection.send(Self.watchRequest) {
            hub.publish(.status(.unavailable("\(label) refused the watch request: \(error)")))
            thread.sleep(backOff.next())
            return
        }
        var reader = DescriptorLineReader(descriptor: connection.descriptor)
        var decoder = GPSDMessageDecoder()
        var announced = false
        var lastHeard = MonotonicClock.nanoseconds()
        while !thread.isStopping {
            // Silence for 3 s: the watch is asked for again. A receiver that gpsd adds while we
            // watch (hotplug, or gpsd just started) should be opened for us; once, in a CI run,
            // it was not: connected to a gpsd that listed no receiver, the source heard nothing
            // for 45 s while one was being fed. gpsd answers a repeated WATCH with its DEVICES and
            // opens every receiver it has.
            if announced, MonotonicClock.nanoseconds() - lastHeard > 3_000_000_000 {
                lastHeard = MonotonicClock.nanoseconds()
                if case .failure(let error) = connection.send(Self.watchRequest) {
                    hub.publish(.status(.unavailable("\(label) refused the watch request: \(error)")))
                    thread.sleep(backOff.next())
                    return
                }
            }
            switch reader.read(timeoutMilliseconds: 200) {
            case .lines(let lines):
                let received = MonotonicClock.nanoseconds()
                if !lines.isEmpty { lastHeard = received }
                for line in lines {
                    let events = decoder.decode(line, received: received)
                    if decoder.greeted && !announced {
                        announced = true
                        backOff.reset()
                        // Connected: no fix until a TPV says otherwise.
                        hub.publish(.status(.noFix))
                    }
                    for event in events { hub.publish(event) }
                }
            case .endOfStream:
                hub.publish(.status(.unavailable("\(label) closed the connection")))
                thread.sleep(backOff.next())
                return
            case .failed(let error):
                hub.publish(.status(.unavailable("reading from \(label) failed: \(error)")))
                thread.sleep(backOff.next())
                return
            }
        }
    }
}
