import ARCompositor
import ArcaptureCore
import CaptureKit

/// The files an ``ARSession`` loads its ``MapData`` from, the first time a view needs it.
public struct MapDataFiles: Sendable, Equatable {
    /// A GeoJSON file of points of interest (RFC 7946).
    public var pointsOfInterest: String?
    /// A route: GPX (its first `<rte>`, else its first `<trk>`) or a GeoJSON LineString.
    public var route: String?
    /// A JSON style file.
    public var style: String?

    /// Names the files; nothing is read yet.
    public init(pointsOfInterest: String? = nil, route: String? = nil, style: String? = nil) {
        self.pointsOfInterest = pointsOfInterest
        self.route = route
        self.style = style
    }

    /// Reads the files; what the POI file holds that is not a POI is in ``MapData/notes``.
    ///
    /// - Throws: `InputFileError` naming the file, the line or feature, and the field.
    public func load() throws(InputFileError) -> MapData {
        let pois = try pointsOfInterest.map { path throws(InputFileError) in try GeoJSONFile(contentsOf: path) }
        let style = try style.map { path throws(InputFileError) in try OverlayStyleFile(contentsOf: path) }
        let route = try route.map { path throws(InputFileError) in try RouteFile.load(path) }
        var data = MapData(
            pointsOfInterest: pois?.pointsOfInterest ?? [], route: route, style: style ?? OverlayStyleFile())
        if let pois, let path = pointsOfInterest { data.notes = pois.pointOfInterestNotes(file: path) }
        return data
    }
}
