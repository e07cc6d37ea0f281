/// Label texts kept between frames, per POI: a label changes only when its distance's text does
/// (every ten metres or so), so a stream of frames builds each text once instead of every frame.
final class LabelTextCache {
    private var entries: [String: (distance: String, text: String)] = [:]

    /// A label's text: the name, then its distance, read in that order whatever the name's
    /// script. The name is a first-strong isolate (U+2068 … U+2069, Unicode's bidi algorithm), so
    /// a Hebrew or Arabic name is right to left inside itself but the label stays "name · 1.2 km":
    /// without it the name's direction became the line's, and "תל אביב · 7.0 km" was drawn as
    /// "km 7.0 · תל אביב". The isolate marks are not drawn.
    static func compose(name: String, distance: String) -> String {
        "\u{2068}\(name)\u{2069} · \(distance)"
    }

    /// `Name · 1.2 km` for `point` at the distance text `distance`.
    func text(for point: PointOfInterest, distance: String) -> String {
        if let entry = entries[point.id], entry.distance == distance { return entry.text }
        let text = Self.compose(name: point.name, distance: distance)
        if entries.count >= 4096 { entries.removeAll(keepingCapacity: true) }  // bounded over long footage
        entries[point.id] = (distance, text)
        return text
    }
}
