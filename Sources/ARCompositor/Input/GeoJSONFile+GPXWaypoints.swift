import ArcaptureCore
import Positioning

extension GeoJSONFile {
    /// The waypoints (`<wpt>`) of a GPX file as points of interest, as GPS units, Garmin
    /// BaseCamp, OsmAnd and gpx.studio export places: each named by its `<name>` (else `wpt N`,
    /// its place among them), at its `<ele>` when it has one. A GPX file's tracks and routes are
    /// not POIs; ``pointOfInterestNotes(file:)`` says so, as for GeoJSON lines.
    ///
    /// - Throws: `InputFileError` naming the line, from ``GPXFile``.
    init(gpxWaypointsOf path: String) throws(InputFileError) {
        let gpx = try GPXFile(contentsOf: path)
        self.init(pointsOfInterest: [], routes: [], skipped: [:])
        for (index, waypoint) in gpx.waypoints.enumerated() {
            let identifier = waypoint.name ?? "wpt \(index)"
            pointsOfInterest.append(
                PointOfInterest(
                    id: identifier, name: identifier, latitude: waypoint.latitude, longitude: waypoint.longitude,
                    altitude: waypoint.elevation))
        }
        elevationsAboveSeaLevel = gpx.waypoints.filter { $0.elevation != nil }.count
        gpxLines = gpx.tracks.count + gpx.routes.count
    }
}
