import ArcaptureCore

/// Sprites kept between frames (labels, markers, the panel repeat frame after frame), within a
/// byte budget over hours of footage whose labels keep changing, and shared by the compositors of
/// several drawing threads (footage workers): each label is composed once, not once per worker.
///
/// Two generations: sprites go into the current one; when it holds half the budget it becomes the
/// old one and the older is dropped. A sprite found in the old generation moves back into the
/// current one, so what the last frames drew stays, and what no frame has drawn for a while goes.
///
/// Share a cache only among compositors with the same style and sample range (a sprite's key does
/// not hold them). Thread-safe; a sprite two threads miss at once may be composed twice.
public final class SpriteCache: Sendable {
    /// What a sprite shows: a kind, its text (if any) and numbers (sizes, colours, chroma
    /// factors); hashing it costs no formatting.
    struct Key: Hashable, Sendable {
        var kind: UInt8
        var text: String = ""
        var detail: String = ""
        var numbers: SIMD4<Int64> = .zero
    }

    private struct Generations {
        var current: [Key: Sprite] = [:]
        var old: [Key: Sprite] = [:]
        var currentBytes = 0
    }

    private let generations = Locked(Generations())
    private let budget: Int

    /// A cache holding at most about `budget` bytes of sprites (default 2 MiB).
    public init(budget: Int = 2 << 20) { self.budget = budget }

    /// Bytes of sprites held (both generations).
    var byteCount: Int {
        generations.withLock { $0.currentBytes + $0.old.values.reduce(0) { $0 + $1.byteCount } }
    }

    /// The sprite for `key`, made by `make` (outside the lock) when it is not kept.
    func sprite(_ key: Key, make: () -> Sprite) -> Sprite {
        let kept = generations.withLock { state -> Sprite? in
            if let sprite = state.current[key] { return sprite }
            guard let sprite = state.old.removeValue(forKey: key) else { return nil }
            Self.insert(sprite, for: key, into: &state, budget: budget)
            return sprite
        }
        if let kept { return kept }
        let made = make()
        generations.withLock { Self.insert(made, for: key, into: &$0, budget: budget) }
        return made
    }

    private static func insert(_ sprite: Sprite, for key: Key, into state: inout Generations, budget: Int) {
        if state.currentBytes + sprite.byteCount > budget / 2 {
            state.old = state.current
            state.current = [:]
            state.currentBytes = 0
        }
        if state.current.updateValue(sprite, forKey: key) == nil { state.currentBytes += sprite.byteCount }
    }
}
