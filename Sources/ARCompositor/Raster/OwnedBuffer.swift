/// Zero-initialised `Int32` memory that grows (keeping nothing: callers refill it) and is freed
/// with its owner.
final class OwnedBuffer {
    private(set) var base: UnsafeMutablePointer<Int32>
    private(set) var count: Int

    init() {
        base = .allocate(capacity: 1)
        base.initialize(to: 0)
        count = 1
    }

    /// Makes room for `needed` values, all zero when newly grown.
    func reserve(_ needed: Int) {
        guard needed > count else { return }
        base.deallocate()
        base = .allocate(capacity: needed)
        base.initialize(repeating: 0, count: needed)
        count = needed
    }

    deinit { base.deallocate() }
}
