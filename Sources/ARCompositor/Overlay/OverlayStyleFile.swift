import ArcaptureCore
import Foundation

/// A style file: how the overlay looks, which layers are drawn, units and the banner, in JSON.
///
/// Every key is optional; what is left out keeps its default. The keys (see the README's "Style
/// file" section for an example with every one):
///
/// - `font`: a fontconfig name or a font file; `text_scale`: text height as a fraction of the
///   frame's (default 1/36); `units`: `metric` or `imperial`.
/// - `layers`: the layers to draw, from `route`, `manoeuvre-arrow`, `markers`, `labels`,
///   `edge-arrows`, `panel`, `banner`.
/// - `colors`: `marker`, `marker_outline`, `selected`, `text`, `halo`, `plate`, `accent`, `route`,
///   `manoeuvre`, `panel`, `warning`, each `#rrggbb` or `#rrggbbaa`.
/// - `categories`: a colour per POI category (`{"amenity=cafe": "#8D6E63"}`).
/// - `markers`: `max_radius`, `min_radius` (pixels), `max_count`, `max_distance_m`,
///   `edge_arrows` (how many).
/// - `route`: `width_m`, `distance_m` (how far ahead the ribbon is drawn).
/// - `banner`: a ``BannerTemplate``.
///
/// An unknown key is an error listing the known ones (a misspelt key silently ignored is a style
/// that does not apply), as is a value of the wrong kind; both name the key.
public struct OverlayStyleFile: Sendable {
    /// Colours, sizes, font and layers.
    public var style = OverlayStyle()
    /// Marker limits and units.
    public var layout = MarkerLayoutOptions()
    /// The banner, when the file sets one.
    public var banner: BannerTemplate?

    /// The defaults.
    public init() {}

    /// Reads a style file.
    ///
    /// - Throws: `InputFileError`: missing, unreadable, not JSON (with the line), or a key that is
    ///   unknown or has a wrong value (naming the key and what is wrong).
    public init(contentsOf path: String) throws(InputFileError) {
        let root = try JSONValue.parse(InputFile.read(path), file: path)
        try self.init(root, file: path)
    }

    init(_ root: JSONValue, file: String) throws(InputFileError) {
        let reader = StyleReader(file: file)
        let top = try reader.object(root, key: nil)
        try reader.known(
            top, ["font", "text_scale", "units", "layers", "colors", "categories", "markers", "route", "banner"],
            in: nil)
        if let value = top["font"] { style.font = try reader.string(value, key: "font") }
        if let value = top["text_scale"] {
            style.textScale = try reader.number(value, key: "text_scale", in: 0.005...0.5)
        }
        if let value = top["units"] {
            let text = try reader.string(value, key: "units")
            guard let units = DistanceUnits(rawValue: text) else {
                throw reader.error("units", "must be \"metric\" or \"imperial\", found \"\(text)\"")
            }
            layout.units = units
        }
        if let value = top["layers"] {
            guard case .array(let items) = value else {
                throw reader.error("layers", "must be an array of layer names")
            }
            var layers: Set<OverlayLayer> = []
            for item in items {
                let name = try reader.string(item, key: "layers")
                guard let layer = OverlayLayer(rawValue: name) else {
                    let known = OverlayLayer.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    throw reader.error("layers", "unknown layer \"\(name)\" (known: \(known))")
                }
                layers.insert(layer)
            }
            style.layers = layers
        }
        if let value = top["colors"] { try readColors(value, reader: reader) }
        if let value = top["categories"] {
            for (category, color) in try reader.object(value, key: "categories") {
                style.categoryColors[category] = try reader.color(color, key: "categories.\(category)")
            }
        }
        if let value = top["markers"] {
            let markers = try reader.object(value, key: "markers")
            try reader.known(
                markers, ["max_radius", "min_radius", "max_count", "max_distance_m", "edge_arrows"], in: "markers")
            if let v = markers["max_radius"] {
                layout.maximumRadius = try reader.number(v, key: "markers.max_radius", in: 1...200)
            }
            if let v = markers["min_radius"] {
                layout.minimumRadius = try reader.number(v, key: "markers.min_radius", in: 1...200)
            }
            if let v = markers["max_count"] {
                layout.maximumMarkers = Int(try reader.number(v, key: "markers.max_count", in: 0...10_000))
            }
            if let v = markers["max_distance_m"] {
                layout.maximumDistance = try reader.number(v, key: "markers.max_distance_m", in: 1...20_000_000)
            }
            if let v = markers["edge_arrows"] {
                layout.maximumEdgeIndicators = Int(try reader.number(v, key: "markers.edge_arrows", in: 0...100))
            }
            guard layout.minimumRadius <= layout.maximumRadius else {
                throw reader.error("markers.min_radius", "must not exceed markers.max_radius (\(layout.maximumRadius))")
            }
        }
        if let value = top["route"] {
            let route = try reader.object(value, key: "route")
            try reader.known(route, ["width_m", "distance_m"], in: "route")
            if let v = route["width_m"] { style.routeWidth = try reader.number(v, key: "route.width_m", in: 0.1...100) }
            if let v = route["distance_m"] {
                style.routeDistance = try reader.number(v, key: "route.distance_m", in: 1...100_000)
            }
        }
        if let value = top["banner"] {
            do {
                banner = try BannerTemplate(reader.string(value, key: "banner"))
            } catch let error as BannerTemplateError {
                throw reader.error("banner", "character \(error.offset + 1): \(error.problem)")
            } catch let error as InputFileError {
                throw error
            } catch {
                throw reader.error("banner", "\(error)")
            }
        }
    }

    private mutating func readColors(_ value: JSONValue, reader: StyleReader) throws(InputFileError) {
        let colors = try reader.object(value, key: "colors")
        let fields: [(String, WritableKeyPath<OverlayStyle, RGBAColor>)] = [
            ("marker", \.markerColor), ("marker_outline", \.markerOutline), ("selected", \.selectedColor),
            ("text", \.textColor), ("halo", \.haloColor), ("plate", \.plateColor), ("accent", \.accentColor),
            ("route", \.routeColor), ("manoeuvre", \.manoeuvreColor), ("panel", \.panelColor),
            ("warning", \.warningColor),
        ]
        try reader.known(colors, fields.map(\.0), in: "colors")
        for (name, path) in fields {
            if let color = colors[name] { style[keyPath: path] = try reader.color(color, key: "colors.\(name)") }
        }
    }
}

/// Reads typed values from a style file's JSON, with errors naming the key.
private struct StyleReader {
    let file: String

    func error(_ key: String, _ problem: String) -> InputFileError {
        .malformed(file: file, location: "key \"\(key)\"", problem: problem)
    }

    func object(_ value: JSONValue, key: String?) throws(InputFileError) -> [String: JSONValue] {
        guard case .object(let members) = value else {
            throw key.map { error($0, "must be an object, found \(value.summary)") }
                ?? .malformed(file: file, location: nil, problem: "a style is a JSON object, found \(value.summary)")
        }
        return members
    }

    func known(_ members: [String: JSONValue], _ keys: [String], in parent: String?) throws(InputFileError) {
        for key in members.keys.sorted() where !keys.contains(key) {
            let path = parent.map { "\($0).\(key)" } ?? key
            throw error(path, "unknown key (known here: \(keys.joined(separator: ", ")))")
        }
    }

    func string(_ value: JSONValue, key: String) throws(InputFileError) -> String {
        guard case .string(let text) = value else { throw error(key, "must be a string, found \(value.summary)") }
        return text
    }

    func number(_ value: JSONValue, key: String, in range: ClosedRange<Double>) throws(InputFileError) -> Double {
        guard case .number(let number) = value else { throw error(key, "must be a number, found \(value.summary)") }
        guard range.contains(number) else {
            throw error(
                key,
                "must be between \(String(format: "%g", range.lowerBound)) and \(String(format: "%g", range.upperBound)), found \(value.summary)"
            )
        }
        return number
    }

    func color(_ value: JSONValue, key: String) throws(InputFileError) -> RGBAColor {
        guard case .string(let text) = value, let color = RGBAColor(hex: text) else {
            throw error(key, "must be a colour like \"#1E88E5\" or \"#1E88E596\" (with alpha), found \(value.summary)")
        }
        return color
    }
}
