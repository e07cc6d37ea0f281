/// Rendered lines kept by their text, bounded by the bytes their masks hold.
///
/// Two generations: lines go into the current one; when it holds `budget` bytes it becomes the
/// previous one (which is dropped) and a new one starts, and a line found in the previous one
/// moves back into the current. A label seen every frame therefore stays, a distance text that
/// changed is gone after two turns, and the cache never holds more than twice `budget` (plus one
/// line). The bound is in bytes rather than lines because lines differ a hundredfold in size: an
/// hour of footage renders thousands of distinct distance labels, and 1,024 of them per renderer
/// (the count bound this replaces) was 9 MB per drawing thread, reached only after about ten minutes,
/// which a soak saw as resident memory still growing at minute 22.
struct RenderedLineCache {
    private var current: [String: RenderedText] = [:]
    private var previous: [String: RenderedText] = [:]
    private var currentBytes = 0
    /// The bytes one generation may hold.
    let budget: Int

    init(budget: Int) {
        self.budget = max(1, budget)
    }

    /// The bytes the kept lines' masks hold now.
    var bytes: Int { currentBytes + previous.values.reduce(0) { $0 + Self.size(of: $1) } }

    /// The line rendered for `text`, if kept.
    mutating func line(for text: String) -> RenderedText? {
        if let line = current[text] { return line }
        guard let line = previous.removeValue(forKey: text) else { return nil }
        insert(line, for: text)
        return line
    }

    /// Keeps `line` as the rendering of `text`.
    mutating func insert(_ line: RenderedText, for text: String) {
        let size = Self.size(of: line)
        if currentBytes + size > budget && !current.isEmpty {
            previous = current
            current = [:]
            currentBytes = 0
        }
        current[text] = line
        currentBytes += size
    }

    private static func size(of line: RenderedText) -> Int {
        line.mask.values.count + line.halo.values.count
    }
}
