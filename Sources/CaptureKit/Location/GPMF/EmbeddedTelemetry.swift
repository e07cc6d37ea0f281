import Foundation

/// Reads the GPS a video file carries inside it (GoPro's GPMF telemetry track, `gpmd`, in MP4s
/// since the Hero5) into a ``RecordedTrack``, with the file's own timing.
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
public enum EmbeddedTelemetry {
    /// A consumer GPS receiver's user-equivalent range error, in metres: dilution of precision
    /// times this is the horizontal accuracy given to each fix (what the heading fade reads).
    public static let rangeError = 5.0

    /// Whether `head` (a file's first bytes) is an ISO base media file: MP4, MOV, 3GP, whose
    /// first box is `ftyp` (or, in old QuickTime files, `moov`, `mdat`, `wide`, `free`).
    public static func isMediaFile(head: [UInt8]) -> Bool {
        guard head.count >= 8 else { return false }
        let box = String(decoding: head[4..<8], as: UTF8.self)
        return ["ftyp", "moov", "mdat", "wide", "free", "skip"].contains(box)
    }

    /// What a video's telemetry says: its track, and the GPS time of the video's start (its
    /// presentation time 0), nil when the receiver never had the time.
    public struct Reading: Sendable {
        /// The fixes.
        public var track: RecordedTrack
        /// The GPS time at the video's start: a frame presented at `t` s was taken at this + `t`.
        public var videoStart: Date?
    }

    /// Reads the telemetry of the video at `path` as a track.
    ///
    /// - Throws: ``InputFileError``: the file is missing or unreadable, FFmpeg cannot read it, it
    ///   has no GPMF track (then it carries no GPS of its own), or no payload could be read.
    public static func load(_ path: String) throws(InputFileError) -> RecordedTrack { try read(path).track }

    /// Whether the video at `path` has a GPMF telemetry track (false for files FFmpeg cannot read).
    public static func hasTelemetry(_ path: String) -> Bool {
        ((try? MediaContainer(path: path))?.streams.contains { $0.codecTag == "gpmd" }) ?? false
    }

    /// Reads the telemetry of the video at `path`: the track and the video's start on the GPS clock.
    ///
    /// - Throws: as ``load(_:)``.
    public static func read(_ path: String) throws(InputFileError) -> Reading {
        let container = try MediaContainer(path: path)
        guard let stream = container.streams.first(where: { $0.codecTag == "gpmd" }) else {
            let kinds = container.streams.map { "\($0.kind) \($0.codecName == "none" ? $0.codecTag : $0.codecName)" }
                .joined(separator: ", ")
            throw .malformed(
                file: path, location: nil,
                problem: "no GPMF telemetry track (gpmd) among its streams (\(kinds)): it carries no GPS of its own")
        }
        var payloads: [(time: Double, duration: Double?, gps: GPMFGPSPayload)] = []
        var attitudePayloads: [(time: Double, duration: Double?, attitude: GPMFAttitudePayload)] = []
        var flights: [(time: Double, duration: Double?, karma: GPMFKarmaPayload)] = []
        var warnings: [String] = []
        var damaged = 0
        var count = 0
        try container.readPackets(of: stream.index) { packet in
            count += 1
            let time = packet.time ?? 0
            do throws(GPMFError) {
                let items = try GPMFItem.parse(packet.bytes)
                // A damaged attitude costs the payload's attitude, not its GPS.
                do throws(GPMFError) {
                    if let attitude = try GPMFAttitudePayload.decode(items) {
                        attitudePayloads.append((time, packet.duration, attitude))
                    }
                } catch {
                    warnings.append(
                        String(format: "\(path): telemetry at %.2f s: \(error); its camera attitude skipped", time))
                }
                if let gps = try GPMFGPSPayload.decode(items) { payloads.append((time, packet.duration, gps)) }
                if let karma = try GPMFKarmaPayload.decode(items) { flights.append((time, packet.duration, karma)) }
            } catch {
                damaged += 1
                warnings.append(String(format: "\(path): telemetry at %.2f s: \(error); payload skipped", time))
            }
        }
        guard damaged < count || count == 0 else {
            throw .malformed(
                file: path, location: "telemetry track \(stream.index)",
                problem: "every one of its \(count) payloads is damaged (first: \(warnings.first ?? "?"))")
        }
        // A HERO5 on a Karma drone records the drone's position instead of GPS5.
        let flightClock = GPMFKarmaPayload.clockOffset(flights.map(\.karma))
        if payloads.isEmpty {
            payloads = flights.map { ($0.time, $0.duration, $0.karma.gps(clockOffset: flightClock)) }
        }
        var track = track(file: path, payloads: payloads, payloadCount: count, damaged: damaged, warnings: warnings)
        if let flightClock {
            track.orientations = headings(flights.map(\.karma), clockOffset: flightClock)
            if !track.orientations.isEmpty {
                track.summary +=
                    "; headings from the drone's yaw (ATTD, \(track.orientations.count) samples), which the camera's gimbal follows"
            }
        }
        let clock = clock(payloads)
        if let clock {
            track.attitudes = attitudes(attitudePayloads, clock: clock)
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
        return Reading(track: track, videoStart: clock.map { Date(timeIntervalSince1970: $0) })
    }

    /// The attitudes of decoded payloads, each sample timed as GPS5's are: spread over its
    /// packet's span from the packet's time on the GPS clock. IORI and CORI are used only when
    /// they have a quaternion for every gravity sample; CORI gives each attitude its ``CameraAttitude/yaw``.
    static func attitudes(
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
    static func headings(_ payloads: [GPMFKarmaPayload], clockOffset: Double) -> [OrientationSample] {
        var result: [OrientationSample] = []
        for attitude in payloads.flatMap(\.attitudes) where attitude.heading.isFinite {
            let time = Date(timeIntervalSince1970: clockOffset + attitude.bootTime)
            if let last = result.last, time <= last.time { continue }
            result.append(OrientationSample(time: time, heading: attitude.heading, origin: .flightController))
        }
        return result
    }

    /// How long a packet's samples span: its duration, else the gap to the next packet's time, else 1 s.
    static func span(duration: Double?, time: Double, next: Double?) -> Double {
        duration ?? next.map { $0 - time } ?? 1
    }

    /// The time of sample `number` of `count` in a packet at `packet` s in the video, spanning
    /// `span` s, on the GPS clock that is `clock` at the video's start: spread evenly over the span.
    static func sampleTime(clock: Double, packet: Double, span: Double, _ number: Int, of count: Int) -> Date {
        Date(timeIntervalSince1970: clock + packet + span * Double(number) / Double(count))
    }

    /// The GPS clock at the video's start, in seconds since 1970: the median over the payloads of
    /// GPSU (or GPS9's first sample time) minus the packet's time (a stale GPSU or two do not move
    /// it); nil without either.
    static func clock(_ payloads: [(time: Double, duration: Double?, gps: GPMFGPSPayload)]) -> Double? {
        // GPS9 samples carry their own time, which serves where there is no GPSU.
        let offsets = payloads.compactMap { payload in
            (payload.gps.utc ?? payload.gps.samples.first?.time).map { $0.timeIntervalSince1970 - payload.time }
        }.sorted()
        return offsets.isEmpty ? nil : offsets[offsets.count / 2]
    }

    /// The fixes of decoded payloads (each with its packet's time and duration in the video).
    static func track(
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
