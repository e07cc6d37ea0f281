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
    var unusedOptions: [OptionSpec] {
        switch self {
        case .photo:
            // --strict also holds for one photo: its --pois file read strictly.
            AnnotateFootage.specs.filter { $0.name != AnnotateFootage.strict.spec.name }
        case .footage:
            Self.photoOnly.map(\.option)
        }
    }

    /// The photo's own options (in the order a refusal lists them), and why each means nothing for
    /// footage.
    private static let photoOnly: [(option: OptionSpec, reason: String)] = [
        (AnnotateSettings.groundSpeed.spec, "the speed comes from the track"),
        (
            ProjectOptions.poiAltitude.spec,
            "POIs without an altitude stand on the ground, --height-above-ground below the camera"
        ),
        (AnnotateSettings.subsampling.spec, "frames keep the input's chroma layout"),
        (AnnotateSettings.time.spec, "frames are timed by --start and --fps, or by their EXIF"),
    ]

    /// Why each photo option means nothing for footage, by name.
    private static let footageReasons = Dictionary(
        uniqueKeysWithValues: photoOnly.map { ($0.option.name, $0.reason) })

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
