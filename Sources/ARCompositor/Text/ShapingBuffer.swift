import CText

/// HarfBuzz's shaping buffer, owned: destroyed when its owner is.
///
/// A class of its own rather than a stored pointer in ``TextRenderer``: a renderer whose
/// initializer throws (an unknown font file) never runs its `deinit`, so a buffer made by its
/// property initializer leaked (LeakSanitizer saw it in CI); a stored property that is an object
/// is released on that path too.
final class ShapingBuffer {
    /// The buffer (nil only when HarfBuzz could not allocate one).
    let pointer: OpaquePointer?

    init() {
        pointer = hb_buffer_create()
    }

    deinit {
        if let pointer { hb_buffer_destroy(pointer) }
    }
}
