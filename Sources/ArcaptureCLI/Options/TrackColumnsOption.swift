import Positioning

/// `--track-columns`: where a CSV track's columns are when its header does not say in words
/// arcapture knows, for every command that reads a track file (`annotate --track`, `sync --track`,
/// `location FILE`, `capture --location FILE`, `serve --location FILE`).
enum TrackColumnsOption {
    static let option = Option<CSVColumnMap>(
        "track-columns", "ROLE=COLUMN,...",
        help:
            "A CSV track's columns, by header name or number from 1 (time=Zeit,lat=Breite,lon=Länge,alt=Höhe; "
            + "roles: \(CSVColumnMap.roles)); the rest are found by their usual names."
    ) { text throws(UsageError) in
        do throws(CSVColumnMap.ParseError) {
            return try CSVColumnMap(parsing: text)
        } catch {
            throw UsageError("--track-columns: \(error.description)")
        }
    }
}
