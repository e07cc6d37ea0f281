/// A session's map data at one moment, with the numbers a pipeline compares to see what changed
/// (``FootagePipeline``'s `mapData` reads one before each frame).
public struct MapDataSnapshot: Sendable {
    /// The POIs, route, style and banner.
    public var data: MapData
    /// Grows with every change.
    public var version: Int
    /// Grows when the route, style or banner may have changed (the annotator is made again).
    public var layoutVersion: Int

    /// A snapshot of `data` at the versions given.
    public init(data: MapData, version: Int, layoutVersion: Int) {
        self.data = data
        self.version = version
        self.layoutVersion = layoutVersion
    }
}
