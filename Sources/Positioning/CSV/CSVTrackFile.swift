import ArcaptureCore
import Foundation

/// A track written as CSV (phone logger apps, spreadsheets, flight logs exported by hand): a header
/// line naming the columns, then one fix per line. The columns are found by their names, in any
/// case and with units in brackets ignored (`Altitude (m)`): the time (`time`, `timestamp`, `utc`,
/// `datetime`…), `lat`/`latitude`, `lon`/`lng`/`longitude`, and optionally the altitude
/// (`alt`, `altitude`, `ele`, `elevation`: above sea level) and a heading (`heading`, `bearing`,
/// `yaw`: from true north). Commas, semicolons or tabs separate the cells (the header's most
/// frequent one), and cells may be quoted as RFC 4180 quotes them.
///
/// A time is ISO 8601 with its zone, or Unix seconds or milliseconds; an ISO time without a zone
/// is read in the zone `TZ` names (a phone logs its local time), and the summary says so. A line
/// whose values cannot be read is skipped with a warning naming it.
enum CSVTrackFile {
    /// The column names each value is found by, normalised (lowercased, letters, digits and `_`).
    static let timeNames: Set<String> = [
        "time", "timestamp", "datetime", "date_time", "utc", "time_utc", "utc_time", "gps_time", "gpstime",
        "date_utc",
    ]
    static let latitudeNames: Set<String> = ["lat", "latitude"]
    static let longitudeNames: Set<String> = ["lon", "lng", "long", "longitude"]
    static let altitudeNames: Set<String> = ["alt", "altitude", "ele", "elevation", "altitude_msl", "height_msl"]
    static let headingNames: Set<String> = ["heading", "bearing", "yaw", "true_heading"]

    /// `Altitude (m)` → `altitude`; `"GPS Time"` → `gps_time`.
    static func normalised(_ name: Substring) -> String {
        var text = name.trimmingCharacters(in: .whitespaces)
        if let bracket = text.firstIndex(where: { $0 == "(" || $0 == "[" }) { text = String(text[..<bracket]) }
        return text.trimmingCharacters(in: CharacterSet(charactersIn: " \"'")).lowercased()
            .map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }

    /// The separator a header line uses: the most frequent of `,`, `;` and a tab.
    static func separator(of header: Substring) -> Character {
        let counts: [(Character, Int)] = [",", ";", "\t"].map { mark in (mark, header.filter { $0 == mark }.count) }
        return counts.max { $0.1 < $1.1 }?.0 ?? ","
    }

    /// The cells of `line`, unquoted (`"a,b"` is one cell; `""` inside quotes is a quote).
    static func cells(_ line: Substring, separator: Character) -> [String] {
        var cells: [String] = []
        var cell = ""
        var quoted = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if quoted {
                if character == "\"" {
                    let next = line.index(after: index)
                    if next < line.endIndex, line[next] == "\"" {
                        cell.append("\"")
                        index = next
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == separator {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
            index = line.index(after: index)
        }
        cells.append(cell.trimmingCharacters(in: .whitespaces))
        return cells
    }

    /// Whether `head` starts with a header naming a latitude and a longitude column.
    static func isCSVTrack(head: Data) -> Bool {
        var text = String(decoding: head.prefix(2048), as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        guard let header = text.split(whereSeparator: \.isNewline).first else { return false }
        let names = Set(cells(header, separator: separator(of: header)).map { normalised($0[...]) })
        return !names.isDisjoint(with: latitudeNames) && !names.isDisjoint(with: longitudeNames)
    }

    /// The time a cell holds, and whether it stated its zone.
    static func time(_ cell: String) -> (date: Date, localZone: (name: String, offset: Int)?)? {
        if let number = Double(cell), number.isFinite, number > 0 {
            // Unix seconds, or milliseconds (a value past the year 5138 in seconds).
            return (Date(timeIntervalSince1970: number > 1e11 ? number / 1000 : number), nil)
        }
        return ZonedTimeText.parse(cell)
    }

    /// Reads `data`, the contents of `file`, its columns found by their names, or where `columns`
    /// says (its roles given; the rest by their names).
    ///
    /// - Throws: `InputFileError` when the header lacks a time, latitude or longitude column (or
    ///   one `columns` names), or no line gives a fix.
    static func read(_ data: Data, file: String, columns: CSVColumnMap? = nil) throws(InputFileError)
        -> RecordedTrack
    {
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        guard let header = lines.first, !header.allSatisfy(\.isWhitespace) else {
            throw .malformed(file: file, location: nil, problem: "empty")
        }
        let separator = separator(of: header)
        let firstCells = cells(header, separator: separator)
        // A file whose columns are all given by number, with numbers where its first line's latitude
        // and longitude are, has no header: its first line is a fix.
        let hasHeader: Bool
        if let columns, columns.isNumbersOnly, case .numbered(let latitude)? = columns.latitude,
            case .numbered(let longitude)? = columns.longitude, latitude <= firstCells.count,
            longitude <= firstCells.count, Double(firstCells[latitude - 1]) != nil,
            Double(firstCells[longitude - 1]) != nil
        {
            hasHeader = false
        } else {
            hasHeader = true
        }
        let names = hasHeader ? firstCells.map { normalised($0[...]) } : []
        func found(_ given: CSVColumnMap.Column?, _ usual: Set<String>, role: String) throws(InputFileError)
            -> Int?
        {
            switch given {
            case .numbered(let number)?:
                guard number <= firstCells.count else {
                    throw .malformed(
                        file: file, location: "line 1",
                        problem: "no column \(number) (the \(role) column given): the line has \(firstCells.count)")
                }
                return number - 1
            case .named(let name)?:
                guard let index = names.firstIndex(of: normalised(name[...])) else {
                    throw .malformed(
                        file: file, location: "line 1",
                        problem: "no column named \"\(name)\" (the \(role) column given); found "
                            + firstCells.map { "\"\($0)\"" }.joined(separator: ", "))
                }
                return index
            case nil:
                return names.firstIndex { usual.contains($0) }
            }
        }
        guard let latitudeColumn = try found(columns?.latitude, latitudeNames, role: "latitude"),
            let longitudeColumn = try found(columns?.longitude, longitudeNames, role: "longitude")
        else {
            throw .malformed(
                file: file, location: "line 1",
                problem: hasHeader
                    ? "no latitude and longitude columns (give them by name or number: lat=NAME,lon=NAME)"
                    : "no header line: give every column by number, the latitude and longitude among them")
        }
        guard let timeColumn = try found(columns?.time, timeNames, role: "time") else {
            throw .malformed(
                file: file, location: "line 1",
                problem: "no time column (one named time, timestamp, datetime or utc): a track's fixes need their "
                    + "times; found \(names.joined(separator: ", "))")
        }
        let dateColumn = try found(columns?.date, [], role: "date")
        let altitudeColumn = try found(columns?.altitude, altitudeNames, role: "altitude")
        let headingColumn = try found(columns?.heading, headingNames, role: "heading")
        /// How the summary names a column: its header's name, or its number.
        func label(_ column: Int) -> String { hasHeader ? "\"\(names[column])\"" : "column \(column + 1)" }
        var warnings: [String] = []
        var warningCount = 0
        func warn(_ text: String) {
            warningCount += 1
            if warnings.count < RecordedTrack.warningLimit { warnings.append("\(file): \(text)") }
        }
        var fixes: [LocationFix] = []
        var orientations: [OrientationSample] = []
        let body = lines.enumerated().dropFirst(hasHeader ? 1 : 0)
        let rows = body.filter { !$0.element.allSatisfy(\.isWhitespace) }.count
        var localTimes = 0
        var localZone: (name: String, offset: Int, example: String)?
        for (offset, line) in body where !line.allSatisfy(\.isWhitespace) {
            let number = offset + 1
            let row = cells(line, separator: separator)
            func cell(_ column: Int?) -> String? {
                guard let column, column < row.count, !row[column].isEmpty else { return nil }
                return row[column]
            }
            // A date in a column of its own goes before the time of day, as ISO 8601 writes them.
            let timeText = cell(timeColumn).map { time in cell(dateColumn).map { "\($0)T\(time)" } ?? time }
            guard let timeText, let time = Self.time(timeText) else {
                warn(
                    "line \(number): no time it can read (\(cell(timeColumn).map { "\"\($0)\"" } ?? "empty")); skipped")
                continue
            }
            guard let latitude = cell(latitudeColumn).flatMap(Double.init),
                let longitude = cell(longitudeColumn).flatMap(Double.init),
                let coordinate = GeodeticCoordinate(latitude: latitude, longitude: longitude)
            else {
                warn("line \(number): no latitude and longitude it can read; skipped")
                continue
            }
            if let last = fixes.last, time.date <= last.time {
                warn("line \(number): its time, \(UTCTime.format(time.date)), is not after the line before's; skipped")
                continue
            }
            if let zone = time.localZone {
                localTimes += 1
                if localZone == nil { localZone = (zone.name, zone.offset, "line \(number): \"\(timeText)\"") }
            }
            let altitude = cell(altitudeColumn).flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
            fixes.append(
                LocationFix(
                    time: time.date, coordinate: coordinate, mode: altitude == nil ? .twoD : .threeD,
                    altitudeMeanSeaLevel: altitude))
            if let heading = cell(headingColumn).flatMap(Double.init), heading.isFinite {
                orientations.append(
                    OrientationSample(time: time.date, heading: CompassDegrees.wrapped(heading), origin: .trackFile))
            }
        }
        guard !fixes.isEmpty else {
            throw .malformed(
                file: file, location: nil,
                problem: "no line gives a fix (\(rows) lines\(warnings.first.map { "; first: \($0)" } ?? ""))")
        }
        var summary =
            "\(fixes.count) fixes from \(rows) lines (CSV\(hasHeader ? "" : " without a header"): "
            + "time \(dateColumn.map { "\(label($0)) and " } ?? "")\(label(timeColumn)), "
            + "latitude \(label(latitudeColumn)), longitude \(label(longitudeColumn))"
        if let altitudeColumn { summary += ", altitude \(label(altitudeColumn)) above sea level" }
        if let headingColumn { summary += ", heading \(label(headingColumn)) from true north" }
        summary += ")"
        if warningCount > 0 { summary += "; lines skipped: \(warningCount)" }
        if let localZone {
            // Said as a warning: an assumed zone moves every fix, and the user must see it.
            summary += "; \(localTimes) times without a zone, read in \(localZone.name)"
            warn(
                ZonedTimeText.warning(
                    count: localTimes, example: localZone.example, zone: (localZone.name, localZone.offset)))
        }
        return RecordedTrack(
            file: file, fixes: fixes, orientations: orientations, warnings: warnings, warningCount: warningCount,
            summary: summary)
    }
}
