/// What an ``NMEADecoder`` has seen: every line is accounted for, so nothing is skipped silently.
public struct NMEAStatistics: Hashable, Sendable {
    /// Lines given to the decoder.
    public var lines = 0
    /// Lines that are not sentences (comments, blank lines, gpsd JSON), skipped.
    public var otherLines = 0
    /// Sentences used, by type (`GGA`, `RMC`, `HDT`, `ASHR`…), whatever the talker.
    public var sentences: [String: Int] = [:]
    /// Valid sentences of types arcapture does not use (satellites in view, wind, depth…), by type.
    public var skipped: [String: Int] = [:]
    /// Sentences whose checksum did not match, skipped.
    public var badChecksums = 0
    /// Sentences without a checksum (usually cut short), skipped.
    public var truncated = 0
    /// Sentences with a field that does not parse, skipped.
    public var malformed = 0
    /// Epochs or orientations whose time was not after the previous one, skipped.
    public var nonMonotonic = 0
    /// Headings that could not be used: before any time, or magnetic before any position or
    /// where no magnetic model applies.
    public var unusableHeadings = 0
    /// Magnetic headings (HDM, HDG without a variation) made true with the World Magnetic Model.
    public var magneticHeadings = 0
    /// The model that declination came from (`WMM2025`), when one did.
    public var declinationModel: String?
    /// Headings after the first in one epoch, not used: heading sentences carry no time of their
    /// own, so only the one closest to the epoch's time is.
    public var repeatedHeadings = 0
    /// Position fixes delivered.
    public var fixes = 0
    /// Epochs in which the receiver reported no position.
    public var epochsWithoutFix = 0
    /// Orientation samples delivered (HDT, THS, HDG, HDM, PASHR).
    public var orientations = 0

    /// Creates empty statistics.
    public init() {}

    /// Sentences skipped because they were damaged: bad checksum, truncated or malformed.
    public var damaged: Int { badChecksums + truncated + malformed }
}
