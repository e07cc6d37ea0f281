import ArcaptureCore
import Positioning

extension GeoJSONFile {
    /// The waypoints (`<wpt>`) of a GPX file as points of interest, as GPS units, Garmin
    /// BaseCamp, OsmAnd and gpx.studio export places: each named by its `<name>` (else `wpt N`,
    /// its place among them), at its `<ele>` (above sea level, put on the ellipsoid with the geoid)
    /// when it has one. A GPX file's tracks and routes are
    /// not POIs; ``pointOfInterestNotes(file:)`` says so, as for GeoJSON lines.
    ///
    /// - Throws: `InputFileError` naming the line, from ``GPXFile``.
    init(gpxWaypointsOf path: String) throws(InputFileError) {
        let gpx = try GPXFile(contentsOf: path)
        self.init(pointsOfInterest: [], routes: [], skipped: [:])
        isGPX = true
        for (index, waypoint) in gpx.waypoints.enumerated() {
            let identifier = waypoint.name ?? "wpt \(index)"
            // An <ele> is above sea level (what GPS units write): put on the ellipsoid.
            let altitude = waypoint.elevation.map {
                ellipsoidal(seaLevel: $0, latitude: waypoint.latitude, longitude: waypoint.longitude)
            }
            pointsOfInterest.append(
                PointOfInterest(
                    id: identifier, name: identifier, latitude: waypoint.latitude, longitude: waypoint.longitude,
                    altitude: altitude))
        }
        gpxLines = gpx.tracks.count + gpx.routes.count
    }
}
