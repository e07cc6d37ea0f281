import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation

/// `annotate`'s own options (beyond `project`'s pose and camera), parsed and validated.
struct AnnotateSettings {
    var output: String
    var quality: Int
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

    static let output = Option.text(
        "output", "FILE", defaultText: "IMAGE-annotated.jpg",
        help:
            "The annotated JPEG (written atomically), or - for stdout; footage also takes v4l2:/dev/videoN (a virtual camera, played at the footage's rate)."
    )
    static let force = Flag("force", help: "Overwrite the output if it exists.")
    static let groundSpeed = Option.number(
        "ground-speed", "M/S", in: 0...1000, help: "Ground speed, for the remaining time on the navigation panel.")
    static let time = Option<Date>(
        "time", "TIME", defaultText: "the photo's EXIF time", help: "The time for {time}, ISO 8601."
    ) { text throws(UsageError) in
        guard let date = UTCTime.parse(text) else {
            throw UsageError("--time must be an ISO 8601 time such as 2020-12-18T06:16:00Z, not '\(text)'")
        }
        return date
    }
    static let subsampling = Option<ChromaSubsampling>(
        "subsampling", "444|422|420", defaultText: "the input's", help: "Chroma subsampling of the output JPEG."
    ) { text throws(UsageError) in
        let names: [String: ChromaSubsampling] = [
            "444": .s444, "4:4:4": .s444, "422": .s422, "4:2:2": .s422, "420": .s420, "4:2:0": .s420,
        ]
        guard let value = names[text] else { throw UsageError("--subsampling must be 444, 422 or 420, not '\(text)'") }
        return value
    }

    init(_ parsed: ParsedArguments, input: String) throws(UsageError) {
        output = parsed.textIfDeclared(Self.output) ?? AnnotateCommand.defaultOutput(for: input)
        quality = try parsed.value(JPEGOutputOptions.quality)
        jpeg = try JPEGOutputOptions(parsed)
        styleFile = parsed.text(OverlayOptions.style)
        routeFile = parsed.text(OverlayOptions.route)
        speed = try parsed.valueIfDeclared(Self.groundSpeed)
        maximumDistance = try parsed.value(OverlayOptions.maxDistance)
        maximumMarkers = try parsed.value(OverlayOptions.maxMarkers)
        selected = Set(parsed.texts(OverlayOptions.select))
        font = parsed.text(OverlayOptions.font)
        units = try parsed.value(OverlayOptions.units)
        banner = try parsed.value(OverlayOptions.banner)
        time = try parsed.valueIfDeclared(Self.time)
        subsampling = try parsed.valueIfDeclared(Self.subsampling)
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
