/// Label texts kept between frames, per POI: a label changes only when its distance's text does
/// (every ten metres or so), so a stream of frames builds each text once instead of every frame.
final class LabelTextCache {
    private var entries: [String: (distance: String, text: String)] = [:]

    /// `Name · 1.2 km` for `point` at the distance text `distance`.
    func text(for point: PointOfInterest, distance: String) -> String {
        if let entry = entries[point.id], entry.distance == distance { return entry.text }
        let text = "\(point.name) · \(distance)"
        if entries.count >= 4096 { entries.removeAll(keepingCapacity: true) }  // bounded over long footage
        entries[point.id] = (distance, text)
        return text
    }
}
