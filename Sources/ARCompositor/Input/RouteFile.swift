import ArcaptureCore
import Foundation
import Positioning

/// Reads a route to follow from a GPX or GeoJSON file.
public enum RouteFile {
    /// The route in `path`: a GPX file's first route (`rte`), or its first track (`trk`, segments
    /// joined) when it has no route; a GeoJSON file's first LineString (or first line of a
    /// MultiLineString). GPX is recognised by its `.gpx` extension or an XML start.
    ///
    /// - Throws: `InputFileError`: the file's own errors, or `no route` when it holds none, or a
    ///   route with fewer than two distinct points.
    public static func load(_ path: String) throws(InputFileError) -> NavigationRoute {
        let data = try InputFile.read(path)
        let isGPX =
            path.lowercased().hasSuffix(".gpx")
            || data.prefix(64).drop {
                $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF
            }
            .first == UInt8(ascii: "<")
        let route: GeoRoute
        if isGPX {
            let file = try GPXFile(data: data, file: path)
            let chosen = file.routes.first { $0.points.count >= 2 } ?? file.tracks.first { $0.points.count >= 2 }
            guard let chosen else {
                throw .malformed(
                    file: path, location: nil, problem: "no route: no <rte> or <trk> with two or more points")
            }
            route = GeoRoute(
                id: chosen.name ?? "route",
                vertices: chosen.points.map { GeoRoute.Vertex(latitude: $0.latitude, longitude: $0.longitude) })
        } else {
            let file = try GeoJSONFile(JSONValue.parse(data, file: path), file: path)
            guard let first = file.routes.first else {
                throw .malformed(file: path, location: nil, problem: "no route: the file has no LineString")
            }
            route = first
        }
        guard let prepared = NavigationRoute(route) else {
            throw .malformed(file: path, location: nil, problem: "the route has fewer than two distinct points")
        }
        return prepared
    }
}
