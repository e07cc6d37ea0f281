/// Turns what a user wrote to select POIs (`--select`, a style's `selected`) into POI ids: an id
/// stands for itself, and a name, which is what a user reads on a label, for every POI of that
/// name (compared without regard to case). What matches neither is returned, to be said.
public enum POISelection {
    /// The ids `values` select among `pointsOfInterest`, and the values that select none.
    public static func resolve(_ values: some Sequence<String>, among pointsOfInterest: [PointOfInterest])
        -> (ids: Set<String>, unmatched: [String])
    {
        let ids = Set(pointsOfInterest.map(\.id))
        var byName: [String: [String]] = [:]
        for poi in pointsOfInterest { byName[poi.name.lowercased(), default: []].append(poi.id) }
        var selected = Set<String>()
        var unmatched: [String] = []
        for value in values {
            if ids.contains(value) {
                selected.insert(value)
            } else if let named = byName[value.lowercased()] {
                selected.formUnion(named)
            } else {
                unmatched.append(value)
            }
        }
        return (selected, unmatched.sorted())
    }
}
