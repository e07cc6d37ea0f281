import ArcaptureCore
import Glibc

/// Positions from a GPS receiver on a serial port (`/dev/ttyACM0`, `/dev/ttyUSB0`, `/dev/serial0`)
/// speaking NMEA 0183, read directly, without gpsd.
///
/// The port is put in raw mode at ``baudRate`` through termios (8 data bits, no parity, one stop
/// bit: what NMEA specifies). Lines go through ``NMEADecoder``; an epoch's fix is delivered when
/// the next epoch starts or the line has been quiet for 150 ms, so the newest fix is not held back.
/// Damaged sentences become warnings. When the port disappears (a USB receiver unplugged) the
/// status is ``LocationStatus/unavailable(_:)`` and the source reopens it with back-off when it
/// returns. A path that is not a terminal (a named pipe) is read as it is.
public final class NMEASerialLocationSource: LocationSource {
    /// The port's path.
    public let path: String
    /// The line speed in bits per second.
    public let baudRate: Int
    private let hub = LocationEventHub(status: .starting)
    private let thread = SourceThread(name: "arcapture.nmea-serial")

    /// The speeds termios can set, in bits per second.
    public static let supportedBaudRates = [4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600]

    /// Creates a source for the port at `path`; nil when `baudRate` is not one termios supports.
    public init?(path: String, baudRate: Int = 9600) {
        guard Self.supportedBaudRates.contains(baudRate) else { return nil }
        self.path = path
        self.baudRate = baudRate
    }

    /// `PATH@BAUD`.
    public var name: String { "\(path)@\(baudRate)" }

    /// The status now.
    public var status: LocationStatus { hub.status }

    /// The newest fix.
    public var latestFix: LocationFix? { hub.latestFix }

    /// Adds an observer.
    public func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        hub.addObserver(observer)
    }

    /// Opens the port and reads it on the source's thread until stopped.
    public func start() {
        let (path, speed, hub) = (self.path, Self.speed(baudRate), self.hub)
        let backOff = BackOff()
        thread.start { thread in
            Self.session(path: path, speed: speed, hub: hub, thread: thread, backOff: backOff)
        }
    }

    /// Closes the port and waits for the thread to end.
    public func stop() { thread.stop() }

    private static func session(
        path: String, speed: speed_t, hub: LocationEventHub, thread: SourceThread, backOff: BackOff
    ) {
        let opened = SystemCall.retryingInterrupts("open") { open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) }
        guard case .success(let descriptor) = opened else {
            if case .failure(let error) = opened {
                hub.publish(.status(.unavailable("cannot open \(path): \(error.errno)")))
            }
            thread.sleep(backOff.next())
            return
        }
        defer { _ = SystemCall.once("close") { close(descriptor) } }
        if case .failure(let problem) = configure(descriptor, speed: speed) {
            hub.publish(.status(.unavailable("cannot configure \(path): \(problem)")))
            thread.sleep(backOff.next())
            return
        }
        hub.publish(.status(.noFix))
        var reader = DescriptorLineReader(descriptor: descriptor)
        var decoder = NMEADecoder()
        var heardSince = false
        while !thread.isStopping {
            switch reader.read(timeoutMilliseconds: 150) {
            case .lines(let lines) where lines.isEmpty:
                // Quiet: the epoch is complete, deliver it now rather than at the next one.
                if heardSince {
                    for event in decoder.flush() { hub.publish(event) }
                    heardSince = false
                }
            case .lines(let lines):
                backOff.reset()
                let received = MonotonicClock.nanoseconds()
                for line in lines {
                    for event in decoder.decode(line: line[...], receivedMonotonicNanoseconds: received) {
                        hub.publish(event)
                    }
                }
                heardSince = true
            case .endOfStream:
                // A pipe's writer went away, or a pty's master closed: wait and reopen.
                hub.publish(.status(.unavailable("\(path) closed")))
                thread.sleep(backOff.next())
                return
            case .failed(let error):
                hub.publish(.status(.unavailable("reading \(path) failed: \(error.errno)")))
                thread.sleep(backOff.next())
                return
            }
        }
    }

    /// Raw mode, 8N1, the speed, reads that return what is there.
    private static func configure(_ descriptor: Int32, speed: speed_t) -> Result<Void, SystemCallError> {
        var settings = termios()
        switch SystemCall.retryingInterrupts("tcgetattr", { tcgetattr(descriptor, &settings) }) {
        case .failure(let error) where error.errno == .notSupported: return .success(())  // not a terminal
        case .failure(let error): return .failure(error)
        case .success: break
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        settings.c_cflag &= ~tcflag_t(CSTOPB | PARENB)
        _ = cfsetispeed(&settings, speed)
        _ = cfsetospeed(&settings, speed)
        return SystemCall.retryingInterrupts("tcsetattr") { tcsetattr(descriptor, TCSANOW, &settings) }.map { _ in () }
    }

    private static func speed(_ baudRate: Int) -> speed_t {
        switch baudRate {
        case 4800: speed_t(B4800)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115_200: speed_t(B115200)
        case 230_400: speed_t(B230400)
        case 460_800: speed_t(B460800)
        case 921_600: speed_t(B921600)
        default: speed_t(B9600)
        }
    }
}
