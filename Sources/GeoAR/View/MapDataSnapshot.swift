/// The session's map data at one moment, with the numbers views compare to see what changed.
struct MapDataSnapshot: Sendable {
    var data: MapData
    /// Grows with every change.
    var version: Int
    /// Grows when the route, style or banner may have changed.
    var layoutVersion: Int
}
