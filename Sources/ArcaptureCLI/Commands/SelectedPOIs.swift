import ARCompositor

/// The selection of a command line and a style file (`--select`, `selected`), resolved against
/// the POIs actually loaded: names become ids, and a value that selects nothing is warned about
/// with the closest ids and names, instead of being silently ignored.
enum SelectedPOIs {
    /// Replaces `style`'s selection with the ids it resolves to among `pointsOfInterest`.
    static func resolve(_ style: inout OverlayStyleFile, among pointsOfInterest: [PointOfInterest]) {
        let (ids, unmatched) = POISelection.resolve(style.layout.selected, among: pointsOfInterest)
        style.layout.selected = ids
        for value in unmatched {
            Terminal.warning(
                "'\(value)' is selected (--select, or the style's \"selected\") but no POI has that id or name"
                    + suggestion(for: value, among: pointsOfInterest))
        }
    }

    /// `; did you mean …` with the nearest few ids or names, or nothing when none is close.
    private static func suggestion(for value: String, among pointsOfInterest: [PointOfInterest]) -> String {
        let lowered = value.lowercased()
        let scored = pointsOfInterest.map { poi in
            (
                poi,
                min(
                    EditDistance.between(lowered, poi.id.lowercased()),
                    EditDistance.between(lowered, poi.name.lowercased()))
            )
        }
        let limit = max(2, value.count / 3)
        let close = scored.filter { $0.1 <= limit }.sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }.prefix(3)
        guard !close.isEmpty else {
            return " (ids are a feature's \"id\" or properties.id, else its index; names are properties.name)"
        }
        return "; did you mean " + close.map { "'\($0.0.id)' (\($0.0.name))" }.joined(separator: ", ") + "?"
    }
}
