import ARCompositor
import CaptureKit
import Foundation
import GeoAR

/// `GET /state`'s document, schema `arcapture.state/1` (docs/json.md): what the view knows now.
/// ``jsonObject`` is the document: snake_case keys with units, every key present (null when it
/// has no value), as in arcapture's other JSON.
public struct LiveViewState: Sendable {
    /// The capture's format.
    public struct Format: Sendable {
        /// The camera's node.
        public var device: String
        /// The pixel format (`YUYV`, `MJPG`).
        public var fourcc: String
        /// Columns.
        public var width: Int
        /// Rows.
        public var height: Int
        /// The rate the driver set, frames per second; nil when it cannot say.
        public var fps: Double?
    }

    /// Frames by what became of them.
    public struct Frames: Sendable {
        /// Frames handed to the clients.
        public var written: Int
        /// Frames drawn on.
        public var annotated: Int
        /// Frames passed through without a pose.
        public var withoutPose: Int
        /// Frames lost (by the driver, or because the pipeline fell behind).
        public var dropped: Int
        /// Frames the camera sent damaged.
        public var damaged: Int
        /// Frames handed to the clients (each encoded once).
        public var published: UInt64
        /// Frames sent while no camera frame came, saying why.
        public var placeholders: UInt64 = 0
        /// Frames left unprocessed while no one watched (`--idle-slowdown`).
        public var idleSkipped: Int = 0
        /// The camera's JPEG frames drawn on by splicing (only the MCUs the overlay touches coded
        /// again), those drawn on whole although splicing was on, and why the first of those was not
        /// spliced.
        public var splicing = SpliceCount()

        /// The counts, for a ``LiveViewModel`` of its own.
        public init(
            written: Int = 0, annotated: Int = 0, withoutPose: Int = 0, dropped: Int = 0, damaged: Int = 0,
            published: UInt64 = 0, placeholders: UInt64 = 0, idleSkipped: Int = 0, splicing: SpliceCount = SpliceCount()
        ) {
            self.written = written
            self.annotated = annotated
            self.withoutPose = withoutPose
            self.dropped = dropped
            self.damaged = damaged
            self.published = published
            self.placeholders = placeholders
            self.idleSkipped = idleSkipped
            self.splicing = splicing
        }
    }

    /// The location source and its latest fix.
    public struct Location: Sendable {
        /// The location source's name.
        public var source: String
        /// Its status (`3D`, `no-fix`, `unavailable: …`).
        public var status: String
        /// The latest fix, if any.
        public var fix: Fix?
    }

    /// A position.
    public struct Fix: Sendable {
        /// Degrees north.
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double
        /// Metres above the ellipsoid.
        public var altitude: Double?
        /// Metres.
        public var horizontalAccuracy: Double?
        /// Degrees from true north.
        public var course: Double?
        /// Metres per second.
        public var speed: Double?
        /// ISO 8601 UTC.
        public var time: String
    }

    /// Navigation along the route.
    public struct Navigation: Sendable {
        /// The route's id.
        public var routeID: String
        /// Metres to the end.
        public var remainingDistance: Double
        /// Seconds to the end, when the speed is known.
        public var remainingTime: Double?
        /// `left`, `right`, `arrive`, …
        public var nextManoeuvre: String
        /// Metres to it.
        public var distanceToManoeuvre: Double
        /// Whether the position is off the route.
        public var isOffRoute: Bool
    }

    /// A point of interest with its distance and bearing from the fix.
    public struct Point: Sendable {
        /// Its id.
        public var id: String
        /// Its name.
        public var name: String
        /// Metres from the fix (nil without one).
        public var distance: Double?
        /// Degrees from true north (nil without a fix).
        public var bearing: Double?
        /// Whether it is selected.
        public var selected: Bool
    }

    /// A connected `/stream` client.
    public struct Client: Sendable {
        /// The `key=` it named itself with.
        public var key: String?
        /// Its address and port.
        public var peer: String
        /// Seconds since it connected.
        public var connectedSeconds: Double
        /// Frames sent to it whole.
        public var framesSent: Int
    }

    /// `arcapture.state/1`.
    public var schema = "arcapture.state/1"
    /// The view's phase (`running`, `waiting for a location fix`, `interrupted: …`).
    public var phase: String
    /// The capture's format; nil before the camera streams.
    public var format: Format?
    /// Frames published per second, measured over the last two seconds.
    public var fps: Double
    /// Frames by what became of them.
    public var frames: Frames
    /// The location source and its fix.
    public var location: Location?
    /// Null when not navigating.
    public var navigation: Navigation?
    /// The selected points of interest's ids, sorted.
    public var selected: [String]
    /// The points of interest, nearest first.
    public var points: [Point]
    /// The `/stream` clients, oldest first.
    public var clients: [Client]

    /// A state, for a ``LiveViewModel`` of its own (a program serving frames it makes itself):
    /// what it does not know is nil or empty.
    public init(
        phase: String, format: Format? = nil, fps: Double = 0, frames: Frames = Frames(), location: Location? = nil,
        navigation: Navigation? = nil, selected: [String] = [], points: [Point] = [], clients: [Client] = []
    ) {
        self.phase = phase
        self.format = format
        self.fps = fps
        self.frames = frames
        self.location = location
        self.navigation = navigation
        self.selected = selected
        self.points = points
        self.clients = clients
    }
}

extension LiveViewState {
    /// The document, for `JSONSerialization` (keys sorted when written).
    public var jsonObject: [String: Any] {
        func value(_ optional: Any?) -> Any { optional ?? NSNull() }
        return [
            "schema": schema, "phase": phase, "fps": fps,
            "format": value(
                format.map { format -> [String: Any] in
                    [
                        "device": format.device, "fourcc": format.fourcc, "width": format.width,
                        "height": format.height, "fps": value(format.fps),
                    ]
                }),
            "frames": [
                "written": frames.written, "annotated": frames.annotated, "without_pose": frames.withoutPose,
                "dropped": frames.dropped, "damaged": frames.damaged, "published": frames.published,
                "placeholders": frames.placeholders, "idle_skipped": frames.idleSkipped,
                "spliced": frames.splicing.spliced, "not_spliced": frames.splicing.notSpliced,
                "not_spliced_reason": value(frames.splicing.firstReason),
            ],
            "location": value(
                location.map { location -> [String: Any] in
                    [
                        "source": location.source, "status": location.status,
                        "fix": value(
                            location.fix.map { fix -> [String: Any] in
                                [
                                    "lat": fix.latitude, "lon": fix.longitude, "alt_hae_m": value(fix.altitude),
                                    "horizontal_accuracy_m": value(fix.horizontalAccuracy),
                                    "course_deg": value(fix.course), "speed_mps": value(fix.speed), "time": fix.time,
                                ]
                            }),
                    ]
                }),
            "navigation": value(
                navigation.map { navigation -> [String: Any] in
                    [
                        "route_id": navigation.routeID, "remaining_m": navigation.remainingDistance,
                        "remaining_s": value(navigation.remainingTime), "next_manoeuvre": navigation.nextManoeuvre,
                        "to_manoeuvre_m": navigation.distanceToManoeuvre, "off_route": navigation.isOffRoute,
                    ]
                }),
            "selected": selected,
            "points": points.map { point -> [String: Any] in
                [
                    "id": point.id, "name": point.name, "distance_m": value(point.distance),
                    "bearing_deg": value(point.bearing), "selected": point.selected,
                ]
            },
            "clients": clients.map { client -> [String: Any] in
                [
                    "key": value(client.key), "peer": client.peer, "connected_s": client.connectedSeconds,
                    "frames_sent": client.framesSent,
                ]
            },
        ]
    }

    /// The state of `view` (capturing from `device`, located by `source`), whose frames go to
    /// `broadcast`, with `clients` connected.
    init(view: GeoARView, device: String, source: String, broadcast: FrameBroadcast, clients: [Client]) {
        phase = view.phase?.description ?? "not presented"
        format = view.cameraFormat.map { negotiated in
            Format(
                device: device, fourcc: negotiated.format.pixelFormat.description,
                width: Int(negotiated.format.width), height: Int(negotiated.format.height),
                fps: negotiated.frameInterval.map(\.framesPerSecond))
        }
        fps = broadcast.measuredRate
        let counts = view.liveCounts ?? LiveCapture.Counts()
        frames = Frames(
            written: counts.written, annotated: counts.annotated, withoutPose: counts.withoutPose,
            dropped: counts.dropped, damaged: counts.damaged, published: broadcast.publishedCount,
            placeholders: broadcast.placeholderCount, idleSkipped: counts.idleSkipped, splicing: counts.splicing)
        let fix = view.latestFix
        location = Location(
            source: source, status: view.locationStatus?.description ?? "starting",
            fix: fix.map { fix in
                Fix(
                    latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude,
                    altitude: fix.coordinate.altitude, horizontalAccuracy: fix.horizontalAccuracy,
                    course: fix.course, speed: fix.speed, time: fix.time.formatted(.iso8601))
            })
        navigation = view.session.navigationInfo.map { info in
            Navigation(
                routeID: info.routeID, remainingDistance: info.remainingDistance, remainingTime: info.remainingTime,
                nextManoeuvre: "\(info.nextManoeuvre.kind)", distanceToManoeuvre: info.distanceToManoeuvre,
                isOffRoute: info.isOffRoute)
        }
        let selection = view.session.selectedPOIIDs
        selected = selection.sorted()
        let frame = fix.map {
            LocalFrame(
                latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude,
                altitude: $0.coordinate.altitude ?? 0)
        }
        points = (view.session.mapData?.pointsOfInterest ?? []).map { point in
            let offset = frame?.enu(
                latitude: point.latitude, longitude: point.longitude, altitude: point.altitude ?? frame?.altitude ?? 0)
            return Point(
                id: point.id, name: point.name, distance: offset?.horizontalDistance, bearing: offset?.bearing,
                selected: selection.contains(point.id))
        }
        .sorted { ($0.distance ?? .infinity, $0.name) < ($1.distance ?? .infinity, $1.name) }
        self.clients = clients
    }
}
