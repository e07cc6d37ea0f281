import Foundation

/// Which columns of a CSV track hold what, for a file whose header names its columns in words
/// arcapture does not know (`Zeit`, `Breite`, `Länge`: a German logger) or that has no header at
/// all (columns by number). Written `time=Zeit,lat=Breite,lon=Länge,alt=Höhe`; a role left out is
/// still found by its usual names (`CSVTrackFile`'s), so `time=Zeit` alone is enough when the
/// rest are named `lat` and `lon`.
///
/// A date and a time in two columns (`date=Datum,time=Uhrzeit`) are read together as one ISO 8601
/// time (`2024-05-01` and `10:00:00Z`). A file whose columns are all given by number and whose
/// first line holds numbers where the latitude and longitude are is read as having no header.
public struct CSVColumnMap: Sendable, Equatable, CustomStringConvertible {
    /// A column: by the name its header gives it (compared as the header's names are: in any case,
    /// units in brackets ignored), or by its number, counted from 1.
    public enum Column: Sendable, Equatable, CustomStringConvertible {
        /// The column the header names so.
        case named(String)
        /// The column at this place in each line, counted from 1.
        case numbered(Int)

        /// `"Zeit"` or `column 3`.
        public var description: String {
            switch self {
            case .named(let name): return "\"\(name)\""
            case .numbered(let number): return "column \(number)"
            }
        }
    }

    /// Why a column map's text was refused.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, and what is expected.
        public var description: String
    }

    /// The roles a map gives, as they are written (each one's other spellings are accepted too).
    public static let roles = "time, date, lat, lon, alt, heading"

    /// The fix's time: ISO 8601, or Unix seconds or milliseconds.
    public var time: Column?
    /// The fix's date, when the time column holds only the time of day.
    public var date: Column?
    /// The latitude, in degrees.
    public var latitude: Column?
    /// The longitude, in degrees.
    public var longitude: Column?
    /// The altitude above sea level, in metres.
    public var altitude: Column?
    /// The heading from true north, in degrees.
    public var heading: Column?

    /// A map that gives the columns it is given and leaves the rest to their usual names.
    public init(
        time: Column? = nil, date: Column? = nil, latitude: Column? = nil, longitude: Column? = nil,
        altitude: Column? = nil, heading: Column? = nil
    ) {
        self.time = time
        self.date = date
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.heading = heading
    }

    /// Reads `time=Zeit,lat=Breite,lon=3`: roles (``roles``; `latitude`, `lng`, `ele`, `bearing`…
    /// are accepted too) each given a header name or a column number.
    ///
    /// - Throws: ``ParseError`` naming the part that is not `ROLE=COLUMN`, an unknown role, a
    ///   role given twice or a column number below 1.
    public init(parsing text: String) throws(ParseError) {
        self.init()
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var given: Set<String> = []
        for part in parts {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let role = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = pair.count == 2 ? pair[1].trimmingCharacters(in: .whitespaces) : ""
            guard pair.count == 2, !role.isEmpty, !value.isEmpty else {
                throw ParseError(
                    description: "'\(part)' is not ROLE=COLUMN (a role, \(Self.roles), and a header name or a "
                        + "column number from 1)")
            }
            let column: Column
            if value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) {
                guard let number = Int(value), number >= 1 else {
                    throw ParseError(description: "'\(part)': columns are numbered from 1")
                }
                column = .numbered(number)
            } else {
                column = .named(value)
            }
            guard let canonical = Self.canonicalRole(role) else {
                throw ParseError(description: "'\(role)' is not a role a track's column holds: \(Self.roles)")
            }
            guard given.insert(canonical).inserted else {
                throw ParseError(description: "the \(canonical) column is given twice")
            }
            switch canonical {
            case "time": time = column
            case "date": date = column
            case "lat": latitude = column
            case "lon": longitude = column
            case "alt": altitude = column
            default: heading = column
            }
        }
    }

    /// `lat` for `latitude`, nil for what is not a role.
    private static func canonicalRole(_ role: String) -> String? {
        switch role {
        case "time", "timestamp", "datetime": return "time"
        case "date": return "date"
        case "lat", "latitude": return "lat"
        case "lon", "lng", "long", "longitude": return "lon"
        case "alt", "altitude", "ele", "elevation": return "alt"
        case "heading", "bearing", "yaw", "course": return "heading"
        default: return nil
        }
    }

    /// Whether every column it gives is given by number (a file without a header can be read).
    var isNumbersOnly: Bool {
        let columns = [time, date, latitude, longitude, altitude, heading].compactMap { $0 }
        return !columns.isEmpty && columns.allSatisfy { if case .numbered = $0 { true } else { false } }
    }

    /// `time=Zeit,lat=2`: the map as it is written.
    public var description: String {
        let parts: [(String, Column?)] = [
            ("time", time), ("date", date), ("lat", latitude), ("lon", longitude), ("alt", altitude),
            ("heading", heading),
        ]
        return parts.compactMap { role, column in
            column.map { column in
                switch column {
                case .named(let name): "\(role)=\(name)"
                case .numbered(let number): "\(role)=\(number)"
                }
            }
        }.joined(separator: ",")
    }
}
