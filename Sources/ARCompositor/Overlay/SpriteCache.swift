/// Sprites kept between frames (labels, markers, the panel repeat frame after frame), within a
/// byte budget: when it is exceeded the cache starts over, which costs one frame of composing and
/// keeps memory bounded over hours of footage whose labels keep changing.
final class SpriteCache {
    /// What a sprite shows: a kind, its text (if any) and numbers (sizes, colours, chroma
    /// factors); hashing it costs no formatting.
    struct Key: Hashable {
        var kind: UInt8
        var text: String = ""
        var detail: String = ""
        var numbers: SIMD4<Int64> = .zero
    }

    private var sprites: [Key: Sprite] = [:]
    private var bytes = 0
    private let budget: Int

    /// A cache holding at most `budget` bytes of sprites (default 8 MiB).
    init(budget: Int = 8 << 20) { self.budget = budget }

    /// The sprite for `key`, made by `make` when it is not kept.
    func sprite(_ key: Key, make: () -> Sprite) -> Sprite {
        if let kept = sprites[key] { return kept }
        let made = make()
        if bytes + made.byteCount > budget {
            sprites.removeAll(keepingCapacity: true)
            bytes = 0
        }
        sprites[key] = made
        bytes += made.byteCount
        return made
    }
}
