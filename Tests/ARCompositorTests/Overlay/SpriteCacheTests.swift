import Dispatch
import Testing

@testable import ARCompositor
@testable import ArcaptureCore

@Suite("Sprite cache")
struct SpriteCacheTests {
    /// A 100x100 4:4:4 sprite: 10000 × 2 + 10000 × 3 = 50000 bytes.
    private static func sprite() -> Sprite { Sprite(width: 100, height: 100, h: 1, v: 1, layers: []) }

    private static func key(_ index: Int) -> SpriteCache.Key { SpriteCache.Key(kind: 1, text: "label \(index)") }

    @Test("memory stays within the budget however many different sprites are made")
    func bounded() {
        let cache = SpriteCache(budget: 400_000)
        for index in 0..<1000 { _ = cache.sprite(Self.key(index)) { Self.sprite() } }
        #expect(cache.byteCount <= 400_000)
        #expect(cache.byteCount >= 200_000)  // the old generation is kept, not dropped with the new
    }

    @Test("a sprite drawn every frame is never made again, while others come and go")
    func workingSetKept() {
        let cache = SpriteCache(budget: 400_000)
        var madeAgain = 0
        _ = cache.sprite(Self.key(-1)) { Self.sprite() }
        for index in 0..<1000 {
            _ = cache.sprite(Self.key(-1)) {
                madeAgain += 1
                return Self.sprite()
            }
            _ = cache.sprite(Self.key(index)) { Self.sprite() }
        }
        #expect(madeAgain == 0)
    }

    @Test("threads share one cache: a sprite made by one is found by the others")
    func shared() {
        let cache = SpriteCache(budget: 4_000_000)
        let made = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            _ = cache.sprite(Self.key(index % 10)) {
                made.withLock { $0 += 1 }
                return Self.sprite()
            }
        }
        // Ten sprites; a few more only if two threads missed the same one at the same moment.
        let count = made.withLock { $0 }
        #expect(count >= 10 && count < 40, "\(count) sprites made")
        #expect(cache.byteCount == 10 * 50_000)
    }
}
