import ARCompositor

/// What is drawn and how the camera sees (defaults that the style file applies are the
/// compositor's own, shown from there): the options `annotate`, `capture` and `serve` share,
/// declared once (a command may say one in its own words with `described`).
enum OverlayOptions {
    static let pois = Option.text(
        "pois", "FILE.geojson", help: "Draw these points of interest on each frame (needs --location).")
    static let route = Option.text(
        "route", "FILE",
        help: "A route (GPX or GeoJSON) drawn on the ground; followed, with the panel, with --navigate.")
    static let style = Option.text(
        "style", "FILE", help: "A JSON style file: colours, sizes, font, layers, units, banner.")
    static let banner = Option<BannerTemplate>(
        "banner", "TEMPLATE", help: "A banner line: {time} {time:FMT} {lat} {lon} {alt} {heading} {speed} {frame}."
    ) { text throws(UsageError) in
        do {
            return try BannerTemplate(text)
        } catch {
            throw UsageError("--banner: \(String(describing: error))")
        }
    }
    static let select = Option.text(
        "select", "ID|NAME", help: "Highlight this POI (its id or name) and always label it (repeatable).")
    static let units = Option<DistanceUnits>(
        "units", "metric|imperial", defaultText: DistanceUnits.metric.rawValue, help: "Distance units on labels."
    ) { text throws(UsageError) in
        guard let value = DistanceUnits(rawValue: text) else {
            throw UsageError("--units must be metric or imperial, not '\(text)'")
        }
        return value
    }
    static let font = Option.text(
        "font", "NAME|FILE", defaultText: OverlayStyle().font, help: "A fontconfig font name or a font file.")
    static let maxDistance = Option.number(
        "max-distance", "METRES", in: 1...20_000_000,
        defaultText: Option<Double>.words(MarkerLayoutOptions().maximumDistance),
        help: "Leave out POIs further than this.")
    static let maxMarkers = Option.integer(
        "max-markers", "N", in: 0...10_000, defaultText: "\(MarkerLayoutOptions().maximumMarkers)",
        help: "Draw at most this many markers, the nearest.")
    static let camera = Option.text(
        "camera", "FILE.yaml", help: "A calibration (camera_info or OpenCV), scaled to the frames.")
    static let hfov = Option.number(
        "hfov", "DEG", in: 1...179, default: 70, help: "The horizontal field of view, without --camera.")
    static let heightAboveGround = Option.number(
        "height-above-ground", "METRES", in: -1000...10_000, default: 1.5,
        help: "The camera's height above the ground (the route's).")
    static let sidecar = Option.text(
        "sidecar", "FILE.jsonl",
        help: "One JSON line per written frame: the fix, the pose used, the POIs drawn and where.")
    static let minimap = Flag(
        "minimap", help: "A plan view at the top right: POIs, the route, the position, heading and track.")
}
