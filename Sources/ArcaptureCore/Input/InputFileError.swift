/// An input file that cannot be used, with where and what is wrong.
///
/// ``description`` names the file first, then the place (a line, a feature), then the problem:
/// `pois.geojson: feature 12: coordinates must be [lon, lat] numbers, found ["24.9", "60.1"]`.
public enum InputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file does not exist.
    case missing(file: String)
    /// The file exists but cannot be read.
    case unreadable(file: String, reason: String)
    /// The file's contents are wrong; `location` is a line or a feature, when known.
    case malformed(file: String, location: String?, problem: String)

    /// Whether the file does not exist or cannot be read (a folder, no permission): exit status
    /// 66 (`EX_NOINPUT`) rather than 65, which says its contents are wrong.
    public var cannotBeOpened: Bool {
        switch self {
        case .missing, .unreadable: true
        case .malformed: false
        }
    }

    /// One line, starting with the file's name.
    public var description: String {
        switch self {
        case .missing(let file): "\(file): no such file"
        case .unreadable(let file, let reason): "\(file): cannot be read (\(reason))"
        case .malformed(let file, let location, let problem): "\(file): " + (location.map { "\($0): " } ?? "") + problem
        }
    }
}
