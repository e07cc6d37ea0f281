/// What `annotate` is doing with its input, and the options that mean nothing there: given
/// anyway they are refused (64), naming the mode, rather than accepted and silently ignored (a
/// `--sidecar` that is never written).
enum AnnotateMode {
    /// One photo, drawn for the pose `--position` and `--orientation` give, or its EXIF geotag.
    case photo
    /// Footage (or a folder of geotagged photos): frame by frame, poses from a track, the photos'
    /// EXIF or one fixed `--position`.
    case footage

    /// The options of the other mode, which this one does not use.
    var unusedOptions: [String] {
        switch self {
        case .photo:
            AnnotateFootage.specs.map(\.name)
        case .footage:
            Array(Self.footageReasons.keys).sorted()
        }
    }

    /// Why each photo option means nothing for footage.
    private static let footageReasons = [
        "time": "frames are timed by --start and --fps, or by their EXIF",
        "subsampling": "frames keep the input's chroma layout",
        "ground-speed": "the speed comes from the track",
        "poi-altitude": "POIs without an altitude stand on the ground, --height-above-ground below the camera",
    ]

    /// The refusal when options of the other mode were given, or nil.
    func refusal(_ parsed: ParsedArguments) -> UsageError? {
        let given = parsed.given(unusedOptions).map { "--" + $0 }
        guard !given.isEmpty else { return nil }
        let list =
            given.count == 1 ? given[0] : given.dropLast().joined(separator: ", ") + " and " + given[given.count - 1]
        let verb = given.count == 1 ? "does" : "do"
        switch self {
        case .photo:
            return UsageError(
                "\(list) \(verb) not apply to one photo (one image, one pose: --position or its EXIF geotag); "
                    + "\(given.count == 1 ? "it is a footage option" : "they are footage options"): leave "
                    + "\(given.count == 1 ? "it" : "them") out")
        case .footage:
            let reasons = given.map { "\($0): \(Self.footageReasons[String($0.dropFirst(2))] ?? "")" }
            return UsageError("\(list) \(verb) not apply to footage (\(reasons.joined(separator: "; ")))")
        }
    }
}
