import Testing

@testable import ARCompositor

/// The line cache's bound and its order of eviction, with real renderings (DejaVu Sans).
@Suite("Rendered-line cache")
struct RenderedLineCacheTests {
    @Test("hundreds of distinct labels keep it within its budget, and none is wrong")
    func bounded() throws {
        let renderer = try TextRenderer(pixelSize: 24)
        var cache = RenderedLineCache(budget: 16 * 1024)
        var largest = 0
        var peak = 0
        for metres in 0..<600 {
            let text = "Place \(metres % 40) · \(metres) m"
            let line = renderer.render(text)
            largest = max(largest, line.mask.values.count + line.halo.values.count)
            cache.insert(line, for: text)
            peak = max(peak, cache.bytes)
        }
        #expect(peak <= 16 * 1024)
        #expect(peak > 12 * 1024, "it fills before it drops anything")
        let newest = cache.line(for: "Place 39 · 599 m")
        let kept = try #require(newest)
        #expect(kept.mask == renderer.render("Place 39 · 599 m").mask)
        let oldest = cache.line(for: "Place 0 · 0 m")
        #expect(oldest == nil, "the oldest lines are gone")
    }

    @Test("a line used all along stays; one not used is the first to go")
    func leastRecentlyUsedGoes() throws {
        let renderer = try TextRenderer(pixelSize: 16)
        let label = renderer.render("Cerknica")
        let size = label.mask.values.count + label.halo.values.count
        var cache = RenderedLineCache(budget: 4 * size)
        cache.insert(label, for: "stays")
        cache.insert(label, for: "goes")
        for turn in 0..<20 {
            cache.insert(label, for: "filler \(turn)")
            let found = cache.line(for: "stays")
            #expect(found != nil, "turn \(turn)")
        }
        let dropped = cache.line(for: "goes")
        #expect(dropped == nil)
        #expect(cache.bytes <= 4 * size)
    }

    @Test(
        "a frame's lines that fit the budget are rendered once, however many frames (two generations of half the budget rendered some every frame)"
    )
    func workingSetStays() throws {
        let renderer = try TextRenderer(pixelSize: 16)
        let label = renderer.render("Cerknica")
        let size = label.mask.values.count + label.halo.values.count
        var cache = RenderedLineCache(budget: 4 * size)
        var misses = 0
        for frame in 0..<50 {
            for name in ["a", "b", "c", "d"] where cache.line(for: name) == nil {
                misses += 1
                cache.insert(label, for: name)
                #expect(frame == 0, "\(name) rendered again in frame \(frame)")
            }
        }
        #expect(misses == 4)
    }
}
