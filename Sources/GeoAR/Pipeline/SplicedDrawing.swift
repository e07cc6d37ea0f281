import ARCompositor
import ArcaptureCore
import CaptureKit
import JPEGKit

/// Draws on baseline JPEG frames by splicing (CaptureKit's `JPEGSplicer`): only the MCUs the overlay
/// touches are decoded and encoded again, with the camera's own tables; every other MCU keeps the
/// camera's bits, and every restart interval the overlay leaves alone its bytes. Faster than a
/// transcode, and lossless outside the overlay. Frames it cannot splice are left to the caller's
/// full decode.
///
/// - Important: Not thread-safe; one per drawing thread (a worker, a live capture's writer queue).
final class SplicedDrawing {
    /// What became of a frame.
    enum Outcome {
        /// Coded in a way that is not spliced (progressive, restart markers out of order...), no
        /// restart markers and over half of it drawn on, or an interval found damaged: decode it
        /// whole (which decides whether it is readable). Why, for the run's summary.
        case notSpliced(String)
        /// The annotated frame.
        case spliced([UInt8])
        /// The MCUs drawn on would not decode (the full decode would refuse them too): drop it.
        case damaged(String)
    }

    private let splicer: JPEGSplicer
    /// The frame's planes; only MCUs the overlay touched hold samples.
    private var canvas = YCbCrImage(width: 16, height: 16, subsampling: .s422)

    /// Nil when libjpeg-turbo cannot allocate a handle.
    init?() {
        guard let splicer = try? JPEGSplicer() else { return nil }
        self.splicer = splicer
    }

    /// Splices `jpeg`: `body` draws on the canvas (with `annotator` and `map`, whose painters say
    /// which regions they are about to change); nothing but drawing may read it.
    ///
    /// `body` is called twice: first to find the MCUs it touches (on samples not decoded yet,
    /// which are then decoded all at once: one small decode rather than one per shape), then to
    /// draw on them. After ``Outcome/notSpliced`` the caller draws again on the whole frame. So
    /// `body` must give the same drawing each time and leave nothing behind that another drawing
    /// would repeat.
    func draw(
        _ jpeg: [UInt8], annotator: FrameAnnotator?, map: MapRenderer?, _ body: (inout YCbCrImage) -> Void
    ) -> Outcome {
        guard splicer.begin(jpeg, canvas: &canvas) else { return .notSpliced(splicer.refusal ?? "not spliced") }
        defer {
            annotator?.compositor.willChange = nil
            map?.willChange = nil
        }
        let mark: (Range<Int>, Range<Int>, inout YCbCrImage) -> Void = { [splicer] rows, columns, _ in
            splicer.mark(rows: rows, columns: columns)
        }
        annotator?.compositor.willChange = mark
        map?.willChange = mark
        body(&canvas)
        splicer.prepareMarked(in: &canvas)
        // Refused once the overlay is known (a frame without restart markers drawn over most of
        // it): the full decode, without drawing here again.
        if let refusal = splicer.refusal { return .notSpliced(refusal) }
        // The second drawing asks for the same regions, all decoded now; should it ask for
        // another, that is decoded before it is drawn on.
        let prepare: (Range<Int>, Range<Int>, inout YCbCrImage) -> Void = { [splicer] rows, columns, image in
            splicer.prepare(rows: rows, columns: columns, in: &image)
        }
        annotator?.compositor.willChange = prepare
        map?.willChange = prepare
        // The same drawing again: the POIs' projection and layout are the first drawing's.
        annotator?.reusesLastLayout = true
        body(&canvas)
        annotator?.reusesLastLayout = false
        do {
            return .spliced(try splicer.finish(&canvas))
        } catch {
            return splicer.refusal.map { .notSpliced($0) } ?? .damaged("\(error)")
        }
    }
}
