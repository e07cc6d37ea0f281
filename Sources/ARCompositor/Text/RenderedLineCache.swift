/// Rendered lines kept by their text, bounded by the bytes their masks hold, the least recently
/// used going first.
///
/// The bound is in bytes rather than lines because lines differ a hundredfold in size: an hour of
/// footage renders thousands of distinct distance labels, and 1,024 of them per renderer (the count
/// bound this replaced) was 9 MB per drawing thread, reached only after about ten minutes, which a
/// soak saw as resident memory still growing at minute 22. Least recently used rather than two
/// generations (what it was until 2026-12-05): a generation held half the budget, so a frame whose
/// labels needed more than half (a static 1280x720 scene's 20 labels, the panel and the arrows)
/// dropped and rendered some of them again every frame, 20 allocations and a few layouts a frame;
/// here a frame's lines stay whenever they fit the whole budget.
struct RenderedLineCache {
    private struct Entry {
        var line: RenderedText
        var used: UInt64
        let bytes: Int
    }

    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    /// The bytes the kept lines' masks hold now.
    private(set) var bytes = 0
    /// The bytes the cache may hold (one line larger than it is kept alone).
    let budget: Int

    init(budget: Int) {
        self.budget = max(1, budget)
    }

    /// The line rendered for `text`, if kept (and marked as used now).
    mutating func line(for text: String) -> RenderedText? {
        clock &+= 1
        // Through the index, in place: `entries[text]?.used = clock` allocated on every hit.
        guard let index = entries.index(forKey: text) else { return nil }
        entries.values[index].used = clock
        return entries.values[index].line
    }

    /// Keeps `line` as the rendering of `text`; when the cache then holds more than its budget,
    /// the least recently used lines go until it holds three quarters of it (so a run of new lines
    /// sorts the entries once per quarter of the budget, not once per line).
    mutating func insert(_ line: RenderedText, for text: String) {
        clock &+= 1
        let size = Self.size(of: line)
        if let old = entries.updateValue(Entry(line: line, used: clock, bytes: size), forKey: text) {
            bytes -= old.bytes
        }
        bytes += size
        guard bytes > budget else { return }
        for (key, entry) in entries.sorted(by: { $0.value.used < $1.value.used }) {
            guard bytes > budget * 3 / 4, key != text else { continue }
            entries.removeValue(forKey: key)
            bytes -= entry.bytes
        }
    }

    private static func size(of line: RenderedText) -> Int {
        line.mask.values.count + line.halo.values.count
    }
}
