/// A GPX `trk` (its segments of points) or `rte` (one list of points, in ``segments``' only element).
public struct GPXTrack: Hashable, Sendable {
    /// `<name>`, when given.
    public var name: String?
    /// The `trkseg` lists of points; a route has one.
    public var segments: [[GPXPoint]]

    /// Creates a track.
    public init(name: String?, segments: [[GPXPoint]]) {
        self.name = name
        self.segments = segments
    }

    /// Every point, in file order.
    public var points: [GPXPoint] { segments.flatMap { $0 } }
}
