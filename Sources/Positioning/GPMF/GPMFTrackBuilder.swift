import ArcaptureCore
import Foundation

/// Turns a video's GPMF telemetry payloads, packet by packet, into a ``RecordedTrack`` and the GPS
/// time of the video's start: the decoding half of reading a GoPro's own GPS (the Footage module's
/// `EmbeddedTelemetry` takes the packets out of the container and hands them here).
///
/// What real files get wrong, and what is done about it:
/// - The container's `creation_time` is often the camera's local time labelled UTC: times come
///   from the GPS clock (GPSU) only.
/// - The first GPSU of a file can be stale (seconds behind the next): the clock is tied to the
///   video by the median, over all payloads, of GPSU minus the payload's packet time, which one
///   stale payload does not move.
/// - Samples within a payload are spread over that payload's packet duration (the MP4's timing),
///   not over the video's length (which drifts: 3 % on GoPro's sample clip).
/// - GPS5 altitude is above the ellipsoid, and is kept as such (``GeodeticCoordinate/altitude``).
/// - A damaged payload is skipped, counted and warned about, naming its time in the video.
/// - The camera's gravity vector (GRAV, HERO8 and later), turned into the picture's frame by the
///   image orientation (IORI), gives the camera's pitch and roll (``RecordedTrack/attitudes``),
///   timed like the GPS; its orientation since the recording began (CORI) gives its turns
///   (``CameraAttitude/yaw``), which the course anchors to north (``CameraTurnHeading``).
/// - A HERO5 on a Karma drone records no GPS5 but the drone's flight controller's streams
///   (``GPMFKarmaPayload``): the fused position (GLPI, else the receiver's GPRI) becomes the fixes,
///   its altitude above sea level; the airframe's yaw (ATTD) the headings (``RecordedTrack/orientations``,
///   which the gimbal follows); each sample's own boot time is turned into UTC by the controller's
///   system time (SYST), and the clock is tied to the video as GPS9's is.
public struct GPMFTrackBuilder {
    /// A consumer GPS receiver's user-equivalent range error, in metres: dilution of precision
    /// times this is the horizontal accuracy given to each fix (what the heading fade reads).
    public static let rangeError = 5.0

    private let path: String
    private var payloads: [(time: Double, duration: Double?, gps: GPMFGPSPayload)] = []
    private var attitudePayloads: [(time: Double, duration: Double?, attitude: GPMFAttitudePayload)] = []
    private var flights: [(time: Double, duration: Double?, karma: GPMFKarmaPayload)] = []
    private var warnings: [String] = []
    private var damaged = 0
    private var count = 0

    /// Starts a track for the video at `path` (named in warnings).
    public init(path: String) {
        self.path = path
    }

    /// Decodes one telemetry packet: `time` and `duration` are its presentation time and span in
    /// the video, in seconds. A damaged payload is counted and warned about, never thrown.
    public mutating func add(time packetTime: Double?, duration: Double?, bytes: [UInt8]) {
        count += 1
        let time = packetTime ?? 0
        do throws(GPMFError) {
            let items = try GPMFItem.parse(bytes)
            // A damaged attitude costs the payload's attitude, not its GPS.
            do throws(GPMFError) {
                if let attitude = try GPMFAttitudePayload.decode(items) {
                    attitudePayloads.append((time, duration, attitude))
                }
            } catch {
                warnings.append(
                    String(format: "\(path): telemetry at %.2f s: \(error); its camera attitude skipped", time))
            }
            if let gps = try GPMFGPSPayload.decode(items) { payloads.append((time, duration, gps)) }
            if let karma = try GPMFKarmaPayload.decode(items) { flights.append((time, duration, karma)) }
        } catch {
            damaged += 1
            warnings.append(String(format: "\(path): telemetry at %.2f s: \(error); payload skipped", time))
        }
    }

    /// The track of every packet added, and the GPS time of the video's start (its presentation
    /// time 0), nil when the receiver never had the time.
    ///
    /// - Parameter stream: the telemetry stream's index in its container, for the message.
    /// - Throws: `InputFileError` when every payload was damaged.
    public func finish(stream: Int) throws(InputFileError) -> (track: RecordedTrack, videoStart: Date?) {
        var payloads = self.payloads
        guard damaged < count || count == 0 else {
            throw .malformed(
                file: path, location: "telemetry track \(stream)",
                problem: "every one of its \(count) payloads is damaged (first: \(warnings.first ?? "?"))")
        }
        // A HERO5 on a Karma drone records the drone's position instead of GPS5.
        let flightClock = GPMFKarmaPayload.clockOffset(flights.map(\.karma))
        if payloads.isEmpty {
            payloads = flights.map { ($0.time, $0.duration, $0.karma.gps(clockOffset: flightClock)) }
        }
        var track = Self.track(
            file: path, payloads: payloads, payloadCount: count, damaged: damaged, warnings: warnings)
        if let flightClock {
            track.orientations = Self.headings(flights.map(\.karma), clockOffset: flightClock)
            if !track.orientations.isEmpty {
                track.summary +=
                    "; headings from the drone's yaw (ATTD, \(track.orientations.count) samples), which the camera's gimbal follows"
            }
        }
        let clock = Self.clock(payloads)
        if let clock {
            track.attitudes = Self.attitudes(attitudePayloads, clock: clock)
            if !track.attitudes.isEmpty {
                let turned = attitudePayloads.contains { !$0.attitude.imageOrientation.isEmpty }
                track.summary +=
                    "; the camera's pitch and roll from \(track.attitudes.count) gravity samples (GRAV"
                    + (turned ? ", in the picture's frame by IORI)" : ")")
                let turns = track.attitudes.filter { $0.yaw != nil }.count
                if turns > 0 {
                    track.summary += "; its turns between fixes from \(turns) orientation samples (CORI)"
                }
            }
        }
        return (track, clock.map { Date(timeIntervalSince1970: $0) })
    }

    /// The attitudes of decoded payloads, each sample timed as GPS5's are: spread over its
    /// packet's span from the packet's time on the GPS clock. IORI and CORI are used only when
    /// they have a quaternion for every gravity sample; CORI gives each attitude its ``CameraAttitude/yaw``.
    package static func attitudes(
        _ payloads: [(time: Double, duration: Double?, attitude: GPMFAttitudePayload)], clock: Double
    ) -> [CameraAttitude] {
        var result: [CameraAttitude] = []
        var samples: (gravity: [[Double]], picture: [[Double]?], body: [[Double]?]) = ([], [], [])
        for (index, payload) in payloads.enumerated() {
            let gravity = payload.attitude.gravity
            let turns = payload.attitude.imageOrientation
            let orientations = payload.attitude.cameraOrientation
            let span = Self.span(
                duration: payload.duration, time: payload.time,
                next: index + 1 < payloads.count ? payloads[index + 1].time : nil)
            for (number, vector) in gravity.enumerated() {
                let time = Self.sampleTime(clock: clock, packet: payload.time, span: span, number, of: gravity.count)
                if let last = result.last, time <= last.time { continue }
                let picture = turns.count == gravity.count ? turns[number] : nil
                if let attitude = CameraAttitude(time: time, gravity: vector, imageOrientation: picture) {
                    result.append(attitude)
                    samples.gravity.append(vector)
                    samples.picture.append(picture)
                    samples.body.append(orientations.count == gravity.count ? orientations[number] : nil)
                }
            }
        }
        let yaws = CameraTurns.yaws(
            gravity: samples.gravity, imageOrientation: samples.picture, cameraOrientation: samples.body)
        for index in result.indices { result[index].yaw = yaws[index] }
        return result
    }

    /// A Karma's headings (its ATTD yaw), timed in UTC by `clockOffset`, in increasing time.
    package static func headings(_ payloads: [GPMFKarmaPayload], clockOffset: Double) -> [OrientationSample] {
        var result: [OrientationSample] = []
        for attitude in payloads.flatMap(\.attitudes) where attitude.heading.isFinite {
            let time = Date(timeIntervalSince1970: clockOffset + attitude.bootTime)
            if let last = result.last, time <= last.time { continue }
            result.append(OrientationSample(time: time, heading: attitude.heading, origin: .flightController))
        }
        return result
    }

    /// How long a packet's samples span: its duration, else the gap to the next packet's time, else 1 s.
    package static func span(duration: Double?, time: Double, next: Double?) -> Double {
        duration ?? next.map { $0 - time } ?? 1
    }

    /// The time of sample `number` of `count` in a packet at `packet` s in the video, spanning
    /// `span` s, on the GPS clock that is `clock` at the video's start: spread evenly over the span.
    package static func sampleTime(clock: Double, packet: Double, span: Double, _ number: Int, of count: Int) -> Date {
        Date(timeIntervalSince1970: clock + packet + span * Double(number) / Double(count))
    }

    /// The GPS clock at the video's start, in seconds since 1970: the median over the payloads of
    /// GPSU (or GPS9's first sample time) minus the packet's time (a stale GPSU or two do not move
    /// it); nil without either.
    package static func clock(_ payloads: [(time: Double, duration: Double?, gps: GPMFGPSPayload)]) -> Double? {
        // GPS9 samples carry their own time, which serves where there is no GPSU.
        let offsets = payloads.compactMap { payload in
            (payload.gps.utc ?? payload.gps.samples.first?.time).map { $0.timeIntervalSince1970 - payload.time }
        }.sorted()
        return offsets.isEmpty ? nil : offsets[offsets.count / 2]
    }

    /// The fixes of decoded payloads (each with its packet's time and duration in the video).
    package static func track(
        file: String, payloads: [(time: Double, duration: Double?, gps: GPMFGPSPayload)], payloadCount: Int,
        damaged: Int, warnings: [String]
    ) -> RecordedTrack {
        var warnings = warnings
        let clock = clock(payloads)
        var fixes: [LocationFix] = []
        var withoutFix = 0
        var backwards = 0
        var key = "GPS5"
        for (index, payload) in payloads.enumerated() {
            key = payload.gps.key
            let samples = payload.gps.samples
            let span = Self.span(
                duration: payload.duration, time: payload.time,
                next: index + 1 < payloads.count ? payloads[index + 1].time : nil)
            for (number, sample) in samples.enumerated() {
                let fix = sample.fix ?? payload.gps.fix ?? 3
                let time: Date
                if let own = sample.time {
                    time = own
                } else if let clock {
                    time = Self.sampleTime(clock: clock, packet: payload.time, span: span, number, of: samples.count)
                } else {
                    withoutFix += 1
                    continue
                }
                let seaLevel = payload.gps.altitudeIsMeanSeaLevel
                guard fix >= 2, sample.latitude != 0 || sample.longitude != 0,
                    let coordinate = GeodeticCoordinate(
                        latitude: sample.latitude, longitude: sample.longitude,
                        altitude: seaLevel ? nil : sample.altitude)
                else {
                    withoutFix += 1
                    continue
                }
                if let last = fixes.last, time <= last.time {
                    backwards += 1
                    continue
                }
                let dilution = sample.dilution ?? payload.gps.dilution
                fixes.append(
                    LocationFix(
                        time: time, coordinate: coordinate, mode: fix >= 3 ? .threeD : .twoD,
                        altitudeMeanSeaLevel: seaLevel && sample.altitude.isFinite ? sample.altitude : nil,
                        horizontalAccuracy: dilution.map { $0 * rangeError }, course: sample.course,
                        speed: sample.speed2D))
            }
        }
        if backwards > 0 {
            warnings.append("\(file): \(backwards) GPS samples whose time did not move forward; skipped")
        }
        let karma = key == "GLPI" || key == "GPRI"
        if payloads.isEmpty && damaged == 0 {
            warnings.append(
                "\(file): its telemetry track holds no GPS (no GPS5, GPS9 or Karma GLPI/GPRI in \(payloadCount) payloads)"
            )
        } else if clock == nil && key == "GPS5" {
            warnings.append("\(file): no GPS time (GPSU) in its telemetry: the receiver never had the time")
        } else if clock == nil && karma {
            warnings.append("\(file): no system time (SYST) in its Karma telemetry: its positions cannot be timed")
        }
        var summary = "\(fixes.count) fixes from \(payloadCount) GPMF payloads (\(key)"
        if let first = fixes.first?.time, let last = fixes.last?.time, fixes.count > 1 {
            summary += String(format: " at %.1f Hz", Double(fixes.count - 1) / last.timeIntervalSince(first))
        }
        summary +=
            karma
            ? ", the Karma drone's, altitude above sea level, times from its flight controller's clock (SYST))"
            : ", times from the GPS clock and the video's packet timing)"
        if withoutFix > 0 { summary += "; \(withoutFix) samples without a fix" }
        if damaged > 0 { summary += "; \(damaged) damaged payloads skipped" }
        return RecordedTrack(
            file: file, fixes: fixes, warnings: warnings, warningCount: warnings.count, summary: summary)
    }
}
