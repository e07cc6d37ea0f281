/// Sprites kept between frames (labels, markers, the panel repeat frame after frame), within a
/// byte budget over hours of footage whose labels keep changing.
///
/// Two generations: sprites go into the current one; when it holds half the budget it becomes the
/// old one and the older is dropped. A sprite found in the old generation moves back into the
/// current one, so what the last frames drew stays, and what no frame has drawn for a while goes.
/// (It was one generation of 8 MiB, emptied when full: at 1080p that was 8 MiB per worker, most of
/// it labels with distances long past.)
final class SpriteCache {
    /// What a sprite shows: a kind, its text (if any) and numbers (sizes, colours, chroma
    /// factors); hashing it costs no formatting.
    struct Key: Hashable {
        var kind: UInt8
        var text: String = ""
        var detail: String = ""
        var numbers: SIMD4<Int64> = .zero
    }

    private var current: [Key: Sprite] = [:]
    private var old: [Key: Sprite] = [:]
    private var currentBytes = 0
    private let budget: Int

    /// A cache holding at most about `budget` bytes of sprites (default 2 MiB).
    init(budget: Int = 2 << 20) { self.budget = budget }

    /// Bytes of sprites held (both generations).
    var byteCount: Int { currentBytes + old.values.reduce(0) { $0 + $1.byteCount } }

    /// The sprite for `key`, made by `make` when it is not kept.
    func sprite(_ key: Key, make: () -> Sprite) -> Sprite {
        if let kept = current[key] { return kept }
        let sprite = old.removeValue(forKey: key) ?? make()
        if currentBytes + sprite.byteCount > budget / 2 {
            old = current
            current = [:]
            currentBytes = 0
        }
        current[key] = sprite
        currentBytes += sprite.byteCount
        return sprite
    }
}
