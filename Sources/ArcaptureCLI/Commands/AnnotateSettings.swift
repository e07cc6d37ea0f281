import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation

/// `annotate`'s own options (beyond `project`'s pose and camera), parsed and validated.
struct AnnotateSettings {
    var output: String
    var quality = 90
    var jpeg: JPEGOutputOptions
    var styleFile: String?
    var routeFile: String?
    var speed: Double?
    var banner: BannerTemplate?
    var time: Date?
    var subsampling: ChromaSubsampling?
    var font: String?
    var units: DistanceUnits?
    var maximumDistance: Double?
    var maximumMarkers: Int?
    var selected: Set<String> = []

    init(_ parsed: ParsedArguments, input: String) throws(UsageError) {
        output = parsed.value("output") ?? AnnotateCommand.defaultOutput(for: input)
        quality = try parsed.integer("quality", in: 1...100) ?? quality
        jpeg = try JPEGOutputOptions(parsed)
        styleFile = parsed.value("style")
        routeFile = parsed.value("route")
        speed = try parsed.number("ground-speed", in: 0...1000)
        maximumDistance = try parsed.number("max-distance", in: 1...20_000_000)
        maximumMarkers = try parsed.integer("max-markers", in: 0...10_000)
        selected = Set(parsed.values["select"] ?? [])
        font = parsed.value("font")
        if let text = parsed.value("units") {
            guard let value = DistanceUnits(rawValue: text) else {
                throw UsageError("--units must be metric or imperial, not '\(text)'")
            }
            units = value
        }
        if let text = parsed.value("banner") {
            do {
                banner = try BannerTemplate(text)
            } catch {
                throw UsageError("--banner: \(error.description)")
            }
        }
        if let text = parsed.value("time") {
            guard let date = UTCTime.parse(text) else {
                throw UsageError("--time must be an ISO 8601 time such as 2020-12-18T06:16:00Z, not '\(text)'")
            }
            time = date
        }
        if let text = parsed.value("subsampling") {
            let names: [String: ChromaSubsampling] = [
                "444": .s444, "4:4:4": .s444, "422": .s422, "4:2:2": .s422, "420": .s420, "4:2:0": .s420,
            ]
            guard let value = names[text] else {
                throw UsageError("--subsampling must be 444, 422 or 420, not '\(text)'")
            }
            subsampling = value
        }
    }

    /// The style: `--style`'s file (else the defaults) with the command-line options applied.
    ///
    /// - Throws: `InputFileError` for a missing or malformed style file.
    func loadStyle() throws(InputFileError) -> OverlayStyleFile {
        var style =
            try styleFile.map { path throws(InputFileError) in try OverlayStyleFile(contentsOf: path) }
            ?? OverlayStyleFile()
        apply(to: &style)
        return style
    }

    /// `--route`'s route, if given.
    ///
    /// - Throws: `InputFileError` for a missing or malformed route file.
    func loadRoute() throws(InputFileError) -> NavigationRoute? {
        try routeFile.map { path throws(InputFileError) in try RouteFile.load(path) }
    }

    /// Command-line options win over the style file's.
    private func apply(to file: inout OverlayStyleFile) {
        if let font { file.style.font = font }
        if let units { file.layout.units = units }
        if let maximumDistance { file.layout.maximumDistance = maximumDistance }
        if let maximumMarkers { file.layout.maximumMarkers = maximumMarkers }
        file.layout.selected.formUnion(selected)
    }
}
