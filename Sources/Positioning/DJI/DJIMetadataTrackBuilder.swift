import ArcaptureCore
internal import CDJIMetadata
import Foundation

/// Turns a video's DJI metadata track (`djmd`: the Osmo Action 4 and 5, the Avata 2, the Osmo 360
/// write one protobuf message per frame), or the same kind of track an XTRA camera writes (`xtmd`),
/// into a ``RecordedTrack``: the decoding half of reading it (the Footage module's
/// `EmbeddedTelemetry` takes the packets out of the container).
///
/// The messages are decoded by libprotobuf-c with code protoc-c wrote from the schemas the
/// telemetry-parser project published (`Sources/CDJIMetadata/proto/`, MIT OR Apache-2.0): DJI
/// publishes none. The first message's clip header names its product schema (`dvtm_ac203.proto`);
/// what is read of each:
/// - Osmo Action 4 and 5 (`ac203`, `ac204`, and `ow001`, which repeats their layout): the GPS of
///   the frame (from the camera's GPS remote), no orientation: headings come from the course.
/// - Avata 2 (`wa530`): the drone's GPS, its attitude (yaw, pitch and roll in tenths of a degree,
///   from north: the flight controller's, which the camera's one-axis gimbal follows in yaw) and
///   its velocity (north, east, down).
/// - Osmo 360 (`oq101`): the gimbal's GPS, else the e-bike kit's.
/// - XTRA Edge and Edge Pro (`ae2503`, `ae2504`; telemetry-parser's `src/xtra` schemas, on the
///   same library): the GPS remote's GPS and its velocity (north, east), no orientation.
///
/// Each fix is placed at its sample's time in the video. A GPS time stamp
/// (`YYYY-MM-DD HH:MM:SS`, whole seconds) is read as UTC, as GPS gives it, and ties the video's
/// start to the clock: the latest of the lower bounds the stamps give (a stamp is its second's
/// start, so stamp − sample time ≤ the true start, equal where the second ticks over), which is
/// within a frame of it when every frame has one. A fix the receiver marks invalid, or at 0°, 0°,
/// is left out and counted; a frame repeating the fix before (the GPS updates at 10 Hz, frames
/// come at 30–120) adds nothing. The altitude is the ellipsoidal height when the message says it is
/// (GPS fused or RTK), else the barometer's, read as above sea level and said so.
public struct DJIMetadataTrackBuilder {
    /// The product schemas read, by the name a clip header gives them (`dvtm_ac203.proto`).
    enum Schema: String {
        case osmoAction = "Osmo Action 4/5 (dvtm_ac203, ac204)"
        case avata2 = "Avata 2 (dvtm_wa530)"
        case osmo360 = "Osmo 360 (dvtm_oq101)"
        case xtraEdge = "XTRA Edge / Edge Pro (dvtm_ae2503, ae2504)"

        /// The schema of the product whose proto file or product name is `name`, nil for another.
        init?(name: String) {
            let name = name.lowercased()
            if ["ac203", "ac204", "ac206", "ow001"].contains(where: { name.contains($0) }) {
                self = .osmoAction
            } else if name.contains("wa530") || name.contains("avata 2") || name.contains("avata2") {
                self = .avata2
            } else if name.contains("oq101") || name.contains("osmo 360") {
                self = .osmo360
            } else if ["ae2503", "ae2504", "xtra"].contains(where: { name.contains($0) }) {
                self = .xtraEdge
            } else {
                return nil
            }
        }
    }

    /// What one frame's message gives.
    struct FrameReading {
        var latitude: Double
        var longitude: Double
        var altitude: Double
        var altitudeIsEllipsoidal: Bool
        var isValid: Bool
        var gpsTime: String?
        /// Degrees: yaw from north, pitch, roll.
        var attitude: (yaw: Double, pitch: Double, roll: Double)?
        /// m/s north and east.
        var velocity: (north: Double, east: Double)?
    }

    /// The schemas read, for messages.
    public static let schemasRead =
        "Osmo Action 4/5 (dvtm_ac203, ac204), Avata 2 (dvtm_wa530), Osmo 360 (dvtm_oq101), "
        + "XTRA Edge / Edge Pro (dvtm_ae2503, ae2504)"

    /// The track's name in messages: "DJI metadata", or "XTRA metadata" for an `xtmd` track.
    public var trackName: String { tag == "xtmd" ? "XTRA metadata" : "DJI metadata" }
    /// The track's sample entry (`djmd`, `xtmd`), for messages.
    private let tag: String

    private let path: String
    private var schema: Schema?
    /// The clip header's proto file and product name, as written.
    private var product: (file: String, name: String)?
    private var samples = 0
    private var undecodable = 0
    private var withoutFix = 0
    private var barometric = 0
    private var fixes: [(video: Double, stamp: Date?, fix: LocationFix)] = []
    private var attitudes: [(video: Double, yaw: Double, pitch: Double, roll: Double)] = []
    private var warnings: [String] = []

    /// Whether the track is damaged rather than without GPS: its product's schema is read, some
    /// messages are not that schema's, and none gave a fix (what they held cannot be known).
    public var isDamaged: Bool { schema != nil && fixes.isEmpty && undecodable > 0 }

    /// Starts a track for the video at `path` (named in warnings), whose sample entry is `tag`:
    /// `djmd` (DJI's) or `xtmd` (XTRA's, the same kind of track).
    public init(path: String, tag: String = "djmd") {
        self.path = path
        self.tag = tag
    }

    /// Decodes one sample of the `djmd` track, at `time` s in the video.
    public mutating func add(time packetTime: Double?, bytes: [UInt8]) {
        samples += 1
        let time = packetTime ?? 0
        guard !bytes.isEmpty else { return }
        if product == nil, let header = Self.clipHeader(bytes) {
            product = header
            schema = Schema(name: header.file) ?? Schema(name: header.name)
        }
        guard let schema else { return }
        guard let decoded = Self.decode(bytes, schema: schema) else {
            undecodable += 1
            if undecodable <= 3 {
                warnings.append(
                    String(
                        format:
                            "%@: telemetry at %.2f s: a %d-byte metadata message that is not the %@ schema's; skipped",
                        path, time, bytes.count, schema.rawValue))
            }
            return
        }
        guard let frame = decoded else { return }  // a frame without GPS
        if let attitude = frame.attitude {
            attitudes.append((time, attitude.yaw, attitude.pitch, attitude.roll))
        }
        let latitude = frame.latitude
        let longitude = frame.longitude
        guard frame.isValid, latitude != 0 || longitude != 0,
            let coordinate = GeodeticCoordinate(
                latitude: latitude, longitude: longitude, altitude: frame.altitudeIsEllipsoidal ? frame.altitude : nil)
        else {
            withoutFix += 1
            return
        }
        // A frame repeating the fix before (GPS at 10 Hz, frames at 30 and more) adds nothing.
        if let last = fixes.last?.fix, last.coordinate.latitude == latitude, last.coordinate.longitude == longitude {
            return
        }
        if !frame.altitudeIsEllipsoidal { barometric += 1 }
        let speed = frame.velocity.map { ($0.north * $0.north + $0.east * $0.east).squareRoot() }
        let course = frame.velocity.flatMap { velocity -> Double? in
            guard let speed, speed > 0.5 else { return nil }  // a course only where there is travel
            return (atan2(velocity.east, velocity.north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        }
        fixes.append(
            (
                time, frame.gpsTime.flatMap(Self.stamp),
                LocationFix(
                    time: Date(timeIntervalSince1970: time), coordinate: coordinate, mode: .threeD,
                    altitudeMeanSeaLevel: frame.altitudeIsEllipsoidal ? nil : frame.altitude, course: course,
                    speed: speed)
            ))
    }

    /// The track of every sample added, and the video's start on the GPS clock when the messages
    /// carry GPS time stamps (else the track is timed from the Unix epoch as the video's start:
    /// `isRelative`).
    ///
    /// - Throws: `InputFileError` when the track's product schema is not one arcapture reads, or
    ///   no message holds a fix.
    public func finish() throws(InputFileError) -> (track: RecordedTrack, videoStart: Date?, isRelative: Bool) {
        guard let schema else {
            // The Avata and the O3 Air Unit (wm169): their published schema has the camera's
            // settings and the IMU's attitude, and no GPS at all.
            if let product, [product.file, product.name].contains(where: { $0.lowercased().contains("wm169") }) {
                throw .malformed(
                    file: path, location: nil,
                    problem:
                        "its \(trackName) track (\(tag)) is \(product.name.isEmpty ? "an Avata's" : product.name + "'s") "
                        + "(\(product.file.isEmpty ? "wm169" : product.file)), whose layout holds no GPS (the camera's "
                        + "settings and its attitude only; the drone writes its GPS to the .SRT beside the video when "
                        + "subtitles are on)")
            }
            throw .malformed(
                file: path, location: nil,
                problem: product.map {
                    "its \(trackName) track (\(tag)) is \($0.name.isEmpty ? "a product" : $0.name)'s "
                        + "(\($0.file.isEmpty ? "no schema named" : $0.file)), a layout arcapture does not read: it reads "
                        + Self.schemasRead
                } ?? "its \(trackName) track (\(tag), \(samples) samples) has no clip header naming its product")
        }
        let productName = product.map { $0.name.isEmpty ? schema.rawValue : $0.name } ?? schema.rawValue
        if isDamaged {
            throw .malformed(
                file: path, location: nil,
                problem: "its \(trackName) track (\(productName)) is damaged: \(undecodable) of its \(samples) "
                    + "messages are not the \(schema.rawValue) schema's, and none gave a fix"
                    + (warnings.first.map { " (first: \($0))" } ?? ""))
        }
        guard !fixes.isEmpty else {
            throw .malformed(
                file: path, location: nil,
                problem: withoutFix > 0
                    ? "its \(trackName) track (\(productName)) has no GPS fix: \(withoutFix) frames' GPS invalid or at 0°, 0°"
                    : "its \(trackName) track (\(productName), \(samples) samples) holds no GPS"
                        + (warnings.first.map { " (\($0))" } ?? ""))
        }
        // The video's start: each stamp is the start of its second, so stamp − sample time is a
        // lower bound of it; the latest bound not more than 2 s past their median (a clock that
        // jumps) is the start.
        let bounds = fixes.compactMap { entry in entry.stamp.map { $0.timeIntervalSince1970 - entry.video } }.sorted()
        var videoStart: Date?
        if !bounds.isEmpty {
            let median = bounds[bounds.count / 2]
            videoStart = Date(timeIntervalSince1970: bounds.last { $0 <= median + 2 } ?? median)
        }
        let base = videoStart?.timeIntervalSince1970 ?? 0
        let track = fixes.map { entry in
            var fix = entry.fix
            fix.time = Date(timeIntervalSince1970: base + entry.video)
            return fix
        }
        let orientations = attitudes.map { entry in
            OrientationSample(
                time: Date(timeIntervalSince1970: base + entry.video), heading: CompassDegrees.wrapped(entry.yaw),
                origin: .flightController)
        }
        var summary =
            "\(track.count) fixes from \(samples) \(trackName) samples (\(productName), schema \(schema.rawValue); "
            + (videoStart == nil
                ? "no GPS time stamps: timed by their place in the video only"
                : "GPS time stamps read as UTC")
            + (orientations.isEmpty ? "" : "; heading from the drone's yaw") + ")"
        if barometric > 0 { summary += "; \(barometric) altitudes from the barometer, read as above sea level" }
        if withoutFix > 0 { summary += "; \(withoutFix) frames without a valid fix left out" }
        if undecodable > 0 { summary += "; \(undecodable) messages that could not be decoded skipped" }
        return (
            RecordedTrack(file: path, fixes: track, orientations: orientations, warnings: warnings, summary: summary),
            videoStart, videoStart == nil
        )
    }

    /// `2024-05-01 10:00:00` (or with `-` or `:` between any of the parts) as UTC.
    static func stamp(_ text: String) -> Date? {
        let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count == 6, (1...12).contains(numbers[1]), (1...31).contains(numbers[2]),
            (0...23).contains(numbers[3]), (0...59).contains(numbers[4]), (0...60).contains(numbers[5]),
            numbers[0] >= 2000
        else { return nil }
        var components = DateComponents()
        components.timeZone = TimeZone(identifier: "UTC")
        (components.year, components.month, components.day) = (numbers[0], numbers[1], numbers[2])
        (components.hour, components.minute, components.second) = (numbers[3], numbers[4], numbers[5])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar.date(from: components)
    }

    // MARK: - Decoding (libprotobuf-c)

    /// The clip header's proto file name and product name, when `bytes` holds one: read with a
    /// message of arcapture's own that declares the header alone (every product schema's message
    /// starts with it; one product's frames can fail to decode as another's).
    static func clipHeader(_ bytes: [UInt8]) -> (file: String, name: String)? {
        bytes.withUnsafeBufferPointer { buffer -> (file: String, name: String)? in
            guard let base = buffer.baseAddress,
                let message = arcapture__dji__clip_header_only__unpack(nil, buffer.count, base)
            else { return nil }
            defer { arcapture__dji__clip_header_only__free_unpacked(message, nil) }
            guard let header = message.pointee.clip_meta?.pointee.clip_meta_header?.pointee else { return nil }
            return (text(header.proto_file_name), text(header.product_name))
        }
    }

    /// One message decoded with `schema`: nil when it is not that schema's; `.some(nil)` when it
    /// is but holds no frame GPS.
    static func decode(_ bytes: [UInt8], schema: Schema) -> FrameReading?? {
        bytes.withUnsafeBufferPointer { buffer -> FrameReading?? in
            guard let base = buffer.baseAddress else { return nil }
            switch schema {
            case .osmoAction:
                guard let message = dji__ac203__product_meta__unpack(nil, buffer.count, base) else { return nil }
                defer { dji__ac203__product_meta__free_unpacked(message, nil) }
                let gps = message.pointee.frame_meta?.pointee.gps_frame_meta?.pointee.gps_basic
                return .some(gps.flatMap { reading($0.pointee) })
            case .avata2:
                guard let message = dji__wa530__product_meta__unpack(nil, buffer.count, base) else { return nil }
                defer { dji__wa530__product_meta__free_unpacked(message, nil) }
                guard let drone = message.pointee.frame_meta?.pointee.drone_frame_meta?.pointee,
                    var frame = drone.gps.flatMap({ reading($0.pointee) })
                else { return .some(nil) }
                if let attitude = drone.attitude?.pointee {
                    frame.attitude = (
                        Double(attitude.yaw_decidegree) / 10, Double(attitude.pitch_decidegree) / 10,
                        Double(attitude.roll_decidegree) / 10
                    )
                }
                frame.velocity = drone.velocity.flatMap { northEast($0.pointee) }
                return .some(frame)
            case .osmo360:
                guard let message = oq101__product_meta__unpack(nil, buffer.count, base) else { return nil }
                defer { oq101__product_meta__free_unpacked(message, nil) }
                let frame = message.pointee.frame_meta?.pointee
                let gps =
                    frame?.gimbal_frame_meta?.pointee.gps_basic
                    ?? frame?.ebike_frame_meta?.pointee.ebike_gps?.pointee.gps_basic
                return .some(gps.flatMap { reading($0.pointee) })
            case .xtraEdge:
                guard let message = arcapture__xtra__frame_gps_only__unpack(nil, buffer.count, base) else { return nil }
                defer { arcapture__xtra__frame_gps_only__free_unpacked(message, nil) }
                guard let remote = message.pointee.frame_meta?.pointee.bluetooth_rc_frame_meta?.pointee,
                    var frame = remote.gps_basic.flatMap({ reading($0.pointee) })
                else { return .some(nil) }
                frame.velocity = remote.velocity.flatMap { northEast($0.pointee) }
                return .some(frame)
            }
        }
    }

    /// A GPS message's fix, nil without coordinates.
    private static func reading(_ gps: GpsBasic) -> FrameReading? {
        guard let coordinates = gps.gps_coordinates?.pointee else { return nil }
        // Radians unless the message says degrees (the schema's default unit is radians).
        let scale: Double =
            coordinates.position_coord_unit == POSITION_COORD__POSITION_COORD_UNIT__UNIT_DEG ? 1 : 180 / Double.pi
        let ellipsoidal =
            gps.gps_altitude_type == GPS_BASIC__GPS_ALT_TYPE__GPS_FUSION_ALTITUDE
            || gps.gps_altitude_type == GPS_BASIC__GPS_ALT_TYPE__RTK_ALTITUDE
        let time = gps.has_gps_time != 0 ? gps.gps_time.map { text($0.pointee.time) } : nil
        return FrameReading(
            latitude: coordinates.latitude * scale, longitude: coordinates.longitude * scale,
            altitude: Double(gps.gps_altitude_mm) / 1000, altitudeIsEllipsoidal: ellipsoidal,
            isValid: gps.gps_status != GPS_BASIC__GPS_STATUS__GPS_INVALID, gpsTime: time)
    }

    /// A velocity message's north and east components (its x and y: the Avata 2's and the XTRA GPS
    /// remote's are both north, east, down), nil when either is not a number.
    private static func northEast(_ velocity: Velocity) -> (north: Double, east: Double)? {
        guard velocity.velocity_x.isFinite, velocity.velocity_y.isFinite else { return nil }
        return (Double(velocity.velocity_x), Double(velocity.velocity_y))
    }

    /// A protobuf-c string field (never null: an empty field is an empty string), as UTF-8.
    private static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}
