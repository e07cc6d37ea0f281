/// `--restart-interval` and `--no-splice`: how the JPEGs a command writes are encoded, for
/// `annotate`, `capture` and `serve` alike.
struct JPEGOutputOptions: Sendable {
    /// MCU rows per restart interval in frames encoded (0: no restart markers).
    var restartRows = 1
    /// Whether baseline JPEG frames are spliced rather than encoded whole.
    var splices = true

    static let quality = Option.integer("quality", "Q", in: 1...100, default: 90, help: "JPEG quality, 1-100.")
    static let restartInterval = Option.integer(
        "restart-interval", "ROWS", in: 0...65_535, default: 1,
        help:
            "A restart marker every ROWS MCU rows of the JPEGs encoded (0: none): about 0.1 % larger, and such frames can be spliced when annotated again."
    )
    static let noSplice = Flag(
        "no-splice",
        help:
            "Decode and encode every JPEG whole. Otherwise a camera's MJPEG is spliced: only the parts the overlay touches are re-encoded, at the camera's own quality, and the rest keeps the camera's bits (--quality also turns splicing off)."
    )

    /// The options' declarations, placed after `--quality`.
    static let specs: [OptionSpec] = [restartInterval.spec, noSplice.spec]

    /// The defaults: restart markers every MCU row, splicing on.
    init() {}

    init(_ parsed: ParsedArguments) throws(UsageError) {
        restartRows = try parsed.value(Self.restartInterval)
        // A quality asked for is a quality to encode at: splicing keeps the camera's.
        splices = !parsed.isSet(Self.noSplice) && !parsed.isGiven(Self.quality)
    }
}
