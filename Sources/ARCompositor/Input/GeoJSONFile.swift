import ArcaptureCore
import Positioning

/// The points of interest and routes in a GeoJSON file (RFC 7946), read as users' real files have
/// them: a FeatureCollection, a single Feature or a bare geometry.
public struct GeoJSONFile: Hashable, Sendable {
    /// The Point features, and the Polygon and MultiPolygon ones at their label point, in file order.
    public var pointsOfInterest: [PointOfInterest]
    /// The LineStrings, and the lines of MultiLineStrings, in file order.
    public var routes: [GeoRoute]
    /// Features of other geometry types (MultiPoint, GeometryCollection…), skipped, counted by type.
    public var skipped: [String: Int]
    /// How many of ``pointsOfInterest`` are areas (Polygon, MultiPolygon) placed at their label point.
    public var areas = 0
    /// How many of ``pointsOfInterest`` have an altitude given above mean sea level (a GPX
    /// waypoint's `<ele>`, an OpenStreetMap `ele` tag), put on the ellipsoid by
    /// ``seaLevelReference`` (each POI's ``PointOfInterest/altitude`` is the ellipsoidal one).
    public var elevationsAboveSeaLevel = 0
    /// How the heights above sea level were put on the ellipsoid (EGM96's geoid, or not at all);
    /// nil when there were none.
    public var seaLevelReference: AltitudeReference?
    /// The geoid separation added to the first of them, in metres.
    public var firstGeoidSeparation: Double?
    /// A GPX file's tracks and routes, which are not POIs.
    public var gpxLines = 0
    /// Features that could not be read, each `feature 12: what is wrong`, skipped (unless the file
    /// was read strictly, when the first is an error).
    public var invalid: [String] = []

    /// Creates a file's contents.
    public init(pointsOfInterest: [PointOfInterest], routes: [GeoRoute], skipped: [String: Int]) {
        self.pointsOfInterest = pointsOfInterest
        self.routes = routes
        self.skipped = skipped
    }

    /// What a user should hear when this file is read for its points of interest: the features
    /// that are not POIs and so are not drawn, by type, `file` naming it. A file of LineStrings
    /// given as POIs would otherwise draw nothing without a word.
    public func pointOfInterestNotes(file: String) -> [String] {
        var notes: [String] = []
        if !routes.isEmpty {
            let count = routes.count
            notes.append(
                "\(file): skipped \(count) line\(count == 1 ? "" : "s") (LineString, MultiLineString): only Points and areas are POIs; "
                    + "a line is a route (load it as the route)")
        }
        if gpxLines > 0 {
            notes.append(
                "\(file): skipped \(gpxLines) tracks and routes: only a GPX file's waypoints "
                    + "are POIs")
        }
        for (type, count) in skipped.sorted(by: { $0.key < $1.key }) {
            notes.append(
                "\(file): skipped \(count) \(type) feature\(count == 1 ? "" : "s") (Points and areas are POIs)")
        }
        // Each bad feature named, up to a few: a 100k-feature export with many would drown the run.
        for problem in invalid.prefix(5) { notes.append("\(file): skipped \(problem)") }
        if invalid.count > 5 {
            notes.append(
                "\(file): skipped \(invalid.count - 5) more features that cannot be read (read strictly, the first is an error)"
            )
        }
        if pointsOfInterest.isEmpty { notes.append("\(file): no Point or area features, so no POIs to draw") }
        return notes
    }

    /// What a user should know of where the POIs were placed, which is not wrong but assumed or
    /// derived: waypoints' elevations above sea level taken as ellipsoidal heights, or areas placed
    /// at their label point (nil when neither).
    public func placementNote(file: String) -> String? {
        var notes: [String] = []
        if elevationsAboveSeaLevel > 0, let reference = seaLevelReference, let separation = firstGeoidSeparation {
            let what =
                "\(elevationsAboveSeaLevel) of the \(pointsOfInterest.count) POIs' heights are above sea level "
                + "(\(gpxLines > 0 || isGPX ? "GPX <ele>" : "OpenStreetMap's ele")), "
            if case .seaLevelGeoidModel(let model) = reference {
                notes.append(
                    what + "put on the ellipsoid with \(model)'s geoid "
                        + String(format: "(%+.1f m at the first)", separation))
            } else {
                // Said, not hidden: the geoid separation (tens of metres) is not applied.
                notes.append(
                    what + "taken as heights on the ellipsoid (the geoid separation is not applied: "
                        + "\(GeoidGrid.unavailableReason ?? "no geoid"))")
            }
        }
        if areas > 0 {
            notes.append(
                "\(areas) of the \(pointsOfInterest.count) POIs are areas (Polygon, MultiPolygon), each placed at "
                    + "its label point, the point inside it farthest from its edges")
        }
        return notes.isEmpty ? nil : "\(file): " + notes.joined(separator: "; ")
    }

    /// Whether the POIs came from a GPX file's waypoints.
    var isGPX = false

    /// `seaLevel` metres above sea level at a POI's place, on the ellipsoid (counted for the note).
    mutating func ellipsoidal(seaLevel: Double, latitude: Double, longitude: Double) -> Double {
        let (altitude, reference) = LocationFix.ellipsoidal(
            seaLevel: seaLevel, latitude: latitude, longitude: longitude, assumingGeoidSeparation: nil)
        elevationsAboveSeaLevel += 1
        if seaLevelReference == nil {
            seaLevelReference = reference
            firstGeoidSeparation = altitude - seaLevel
        }
        return altitude
    }

    /// An OpenStreetMap `ele` tag's metres above sea level: a number, or text such as `1234`,
    /// `1234.5` or `1234 m` (OSM's convention is metres); nil for anything else (`4000 ft` is
    /// left out, not guessed).
    static func seaLevelHeight(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let number): return number.isFinite ? number : nil
        case .string(let text):
            var trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix("m") { trimmed = String(trimmed.dropLast()).trimmingCharacters(in: .whitespaces) }
            return Double(trimmed).flatMap { $0.isFinite && abs($0) < 10_000 ? $0 : nil }
        default: return nil
        }
    }

    /// Reads a GeoJSON file (or, named `.gpx`, a GPX file's waypoints). A feature that is wrong
    /// is skipped and listed in ``invalid``, as one bad feature of a 100k-feature export should
    /// not reject the rest; `strict` makes it an error, and so is a file none of whose features
    /// can be read.
    ///
    /// - Throws: `InputFileError`: missing, unreadable, not JSON (with the line), not GeoJSON, or
    ///   (when `strict`) a feature that is wrong (with its index and field), such as
    ///   `pois.geojson: feature 12: coordinates must be [lon, lat] numbers, found ["24.9", "60.1"]`.
    public init(contentsOf path: String, strict: Bool = false) throws(InputFileError) {
        if path.lowercased().hasSuffix(".gpx") {
            try self.init(gpxWaypointsOf: path)
            return
        }
        let root = try JSONValue.parse(try InputFile.read(path), file: path)
        try self.init(root, file: path, strict: strict)
    }

    init(_ root: JSONValue, file: String, strict: Bool = true) throws(InputFileError) {
        self.init(pointsOfInterest: [], routes: [], skipped: [:])
        guard case .string(let type) = root["type"] else {
            throw .malformed(file: file, location: nil, problem: "not GeoJSON: the top level has no \"type\"")
        }
        switch type {
        case "FeatureCollection":
            guard case .array(let features) = root["features"] else {
                throw .malformed(file: file, location: nil, problem: "\"features\" must be an array")
            }
            var first: InputFileError?
            for (index, feature) in features.enumerated() {
                do {
                    try add(feature: feature, index: index, file: file)
                } catch {
                    guard !strict, case .malformed(_, let location, let problem) = error else { throw error }
                    first = first ?? error
                    invalid.append([location, problem].compactMap { $0 }.joined(separator: ": "))
                }
            }
            // A file none of whose features can be read is not an export with a bad feature: it is
            // the wrong file, or written wrongly throughout.
            if let first, invalid.count == features.count { throw first }
        case "Feature":
            try add(feature: root, index: 0, file: file)
        default:
            try add(geometry: root, index: 0, properties: nil, id: nil, file: file)
        }
    }

    private mutating func add(feature: JSONValue, index: Int, file: String) throws(InputFileError) {
        let place = "feature \(index)"
        guard case .object = feature, case .string("Feature") = feature["type"] else {
            throw .malformed(
                file: file, location: place, problem: "expected a Feature object, found \(feature.summary)")
        }
        guard let geometry = feature["geometry"], case .object = geometry else {
            if case .null = feature["geometry"] ?? .null {
                skipped["no geometry", default: 0] += 1
                return
            }
            throw .malformed(file: file, location: place, problem: "\"geometry\" must be an object")
        }
        try add(geometry: geometry, index: index, properties: feature["properties"], id: feature["id"], file: file)
    }

    private mutating func add(
        geometry: JSONValue, index: Int, properties: JSONValue?, id: JSONValue?, file: String
    ) throws(InputFileError) {
        let place = "feature \(index)"
        guard case .string(let type) = geometry["type"] else {
            throw .malformed(file: file, location: place, problem: "the geometry has no \"type\"")
        }
        let identifier = Self.identifier(id: id, properties: properties, index: index)
        switch type {
        case "Point":
            let position = try Self.position(geometry["coordinates"], place: place, file: file)
            try addPointOfInterest(
                at: position, identifier: identifier, properties: properties, place: place, file: file)
        case "Polygon", "MultiPolygon":
            let polygons =
                type == "Polygon"
                ? [try Self.polygon(geometry["coordinates"], place: place, file: file)]
                : try Self.polygons(geometry["coordinates"], place: place, file: file)
            // A MultiPolygon (a park in parts, an island group) is labelled in its largest part.
            guard
                let largest = polygons.max(by: {
                    PolygonLabelPoint.area($0[0]) < PolygonLabelPoint.area($1[0])
                }),
                let label = PolygonLabelPoint.of(largest)
            else {
                skipped["\(type) without area", default: 0] += 1
                return
            }
            areas += 1
            try addPointOfInterest(
                at: GeoRoute.Vertex(latitude: label.latitude, longitude: label.longitude, altitude: nil),
                identifier: identifier, properties: properties, place: place, file: file)
        case "LineString":
            routes.append(
                GeoRoute(id: identifier, vertices: try Self.line(geometry["coordinates"], place: place, file: file)))
        case "MultiLineString":
            guard case .array(let lines) = geometry["coordinates"] else {
                throw .malformed(
                    file: file, location: place, problem: "MultiLineString coordinates must be an array of lines")
            }
            for (number, line) in lines.enumerated() {
                routes.append(
                    GeoRoute(id: "\(identifier)/\(number)", vertices: try Self.line(line, place: place, file: file)))
            }
        default:
            skipped[type, default: 0] += 1
        }
    }

    private mutating func addPointOfInterest(
        at position: GeoRoute.Vertex, identifier: String, properties: JSONValue?, place: String, file: String
    ) throws(InputFileError) {
        func text(_ key: String) -> String? {
            if case .string(let value) = properties?[key] { return value }
            return nil
        }
        // A position's third number is on the ellipsoid (RFC 7946); OpenStreetMap's `ele` tag, the
        // height a peak's export carries, is above sea level.
        var altitude = position.altitude
        if altitude == nil, let seaLevel = Self.seaLevelHeight(properties?["ele"]) {
            altitude = ellipsoidal(seaLevel: seaLevel, latitude: position.latitude, longitude: position.longitude)
        }
        pointsOfInterest.append(
            PointOfInterest(
                id: identifier, name: text("name") ?? text("title") ?? identifier, latitude: position.latitude,
                longitude: position.longitude, altitude: altitude, category: text("category"),
                color: try Self.color(properties?["color"], place: place, file: file), icon: text("icon")))
    }

    /// A Polygon's rings (outline first, then holes), each at least four positions (RFC 7946
    /// 3.1.6: closed, the first repeated last).
    private static func polygon(_ value: JSONValue?, place: String, file: String) throws(InputFileError)
        -> [PolygonLabelPoint.Ring]
    {
        guard case .array(let rings) = value, !rings.isEmpty else {
            throw .malformed(
                file: file, location: place,
                problem: "Polygon coordinates must be an array of rings, found \(value?.summary ?? "nothing")")
        }
        var result: [PolygonLabelPoint.Ring] = []
        for ring in rings {
            guard case .array(let items) = ring, items.count >= 4 else {
                throw .malformed(
                    file: file, location: place,
                    problem: "a Polygon's ring needs at least four positions, found \(ring.summary)")
            }
            var positions: PolygonLabelPoint.Ring = []
            for item in items {
                let vertex = try position(item, place: place, file: file)
                positions.append((vertex.longitude, vertex.latitude))
            }
            result.append(positions)
        }
        return result
    }

    private static func polygons(_ value: JSONValue?, place: String, file: String) throws(InputFileError)
        -> [[PolygonLabelPoint.Ring]]
    {
        guard case .array(let items) = value, !items.isEmpty else {
            throw .malformed(
                file: file, location: place,
                problem: "MultiPolygon coordinates must be an array of polygons, found \(value?.summary ?? "nothing")")
        }
        var result: [[PolygonLabelPoint.Ring]] = []
        for item in items { result.append(try polygon(item, place: place, file: file)) }
        return result
    }

    private static func identifier(id: JSONValue?, properties: JSONValue?, index: Int) -> String {
        for candidate in [id, properties?["id"]] {
            switch candidate {
            case .string(let value): return value
            case .number(let value):
                return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            default: continue
            }
        }
        return String(index)
    }

    private static func position(_ value: JSONValue?, place: String, file: String) throws(InputFileError)
        -> GeoRoute.Vertex
    {
        guard case .array(let items) = value, items.count == 2 || items.count == 3,
            case .number(let longitude) = items[0], case .number(let latitude) = items[1]
        else {
            throw .malformed(
                file: file, location: place,
                problem: "coordinates must be [lon, lat] numbers, found \(value?.summary ?? "nothing")")
        }
        var altitude: Double?
        if items.count == 3 {
            guard case .number(let value) = items[2] else {
                throw .malformed(
                    file: file, location: place, problem: "the altitude must be a number, found \(items[2].summary)")
            }
            altitude = value
        }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw .malformed(
                file: file, location: place,
                problem:
                    "coordinates [\(longitude), \(latitude)] are out of range (GeoJSON is [lon, lat]: is the order swapped?)"
            )
        }
        return GeoRoute.Vertex(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    private static func line(_ value: JSONValue?, place: String, file: String) throws(InputFileError) -> [GeoRoute
        .Vertex]
    {
        guard case .array(let items) = value, items.count >= 2 else {
            throw .malformed(
                file: file, location: place,
                problem: "a line needs at least two positions, found \(value?.summary ?? "nothing")")
        }
        var vertices: [GeoRoute.Vertex] = []
        for item in items { vertices.append(try position(item, place: place, file: file)) }
        return vertices
    }

    private static func color(_ value: JSONValue?, place: String, file: String) throws(InputFileError) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value, text.count == 7, text.first == "#",
            text.dropFirst().allSatisfy(\.isHexDigit)
        else {
            if case .null = value { return nil }
            throw .malformed(file: file, location: place, problem: "color must be \"#rrggbb\", found \(value.summary)")
        }
        return text.lowercased()
    }
}
