/// `--restart-interval` and `--no-splice`: how the JPEGs a command writes are encoded, for
/// `annotate`, `capture` and `serve` alike.
struct JPEGOutputOptions: Sendable {
    /// MCU rows per restart interval in frames encoded (0: no restart markers).
    var restartRows = 1
    /// Whether baseline JPEG frames are spliced rather than encoded whole.
    var splices = true

    /// The options' declarations, placed after `--quality`.
    static let specs: [OptionSpec] = [
        .value(
            "restart-interval", "ROWS", default: "1",
            help:
                "A restart marker every ROWS MCU rows of the JPEGs encoded (0: none): about 0.1 % larger, and such frames can be spliced when annotated again."
        ),
        .flag(
            "no-splice",
            help:
                "Decode and encode every JPEG whole. Otherwise a camera's MJPEG is spliced: only the parts the overlay touches are re-encoded, at the camera's own quality, and the rest keeps the camera's bits (--quality also turns splicing off)."
        ),
    ]

    /// The defaults: restart markers every MCU row, splicing on.
    init() {}

    init(_ parsed: ParsedArguments) throws(UsageError) {
        restartRows = try parsed.integer("restart-interval", in: 0...65_535) ?? restartRows
        // A quality asked for is a quality to encode at: splicing keeps the camera's.
        splices = !parsed.flag("no-splice") && parsed.value("quality") == nil
    }
}
