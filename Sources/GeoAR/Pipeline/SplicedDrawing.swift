import ARCompositor
import CaptureKit

/// Draws on JPEG frames that have restart markers by splicing (CaptureKit's `JPEGSplicer`): only the
/// restart intervals the overlay touches are decoded and encoded again, with the camera's own
/// tables, and every other interval is copied byte for byte. Faster than a transcode, and lossless
/// outside the overlay. Frames it cannot splice are left to the caller's full decode.
///
/// - Important: Not thread-safe; one per drawing thread (a worker, a live capture's writer queue).
final class SplicedDrawing {
    /// What became of a frame.
    enum Outcome {
        /// No restart markers, coded in a way that is not spliced, or an interval that would have
        /// been copied does not walk: decode it whole (which decides whether it is readable).
        case notSpliced
        /// The annotated frame.
        case spliced([UInt8])
        /// A touched interval would not decode (the full decode would refuse it too): drop it.
        case damaged(String)
    }

    private let splicer: JPEGSplicer
    /// The frame's planes; only rows the overlay touched hold samples.
    private var canvas = YCbCrImage(width: 16, height: 16, subsampling: .s422)
    /// The share of restart intervals the last frame measured touched (see ``draw(_:annotator:map:_:)``).
    private var touchedShare = 0.0
    /// Frames decoded whole at once since the share was last measured.
    private var wholeFrames = 0

    /// Nil when libjpeg-turbo cannot allocate a handle.
    init?() {
        guard let splicer = try? JPEGSplicer() else { return nil }
        self.splicer = splicer
    }

    /// Splices `jpeg`: `body` draws on the canvas (with `annotator` and `map`, whose painters
    /// decode the rows they are about to touch); nothing but drawing may read it. After
    /// ``Outcome/notSpliced`` the caller draws again on the whole frame, so `body` must leave
    /// nothing behind that a second drawing would repeat.
    func draw(
        _ jpeg: [UInt8], annotator: FrameAnnotator?, map: MapRenderer?, _ body: (inout YCbCrImage) -> Void
    ) -> Outcome {
        guard splicer.begin(jpeg, canvas: &canvas) else { return .notSpliced }
        // An overlay that touches most rows (a route's ribbon covers the ground below the
        // horizon) costs more in small decodes, one per shape, than the rows it leaves alone
        // save: then the frame is decoded whole at once, and every interval re-encoded with its
        // own tables, for 30 frames; the one after measures the share again.
        let measures = touchedShare <= 0.7 || wholeFrames == 30
        if measures {
            wholeFrames = 0
        } else {
            wholeFrames += 1
            splicer.prepare(rows: 0..<canvas.height, in: &canvas)
        }
        let prepare: (Range<Int>, inout YCbCrImage) -> Void = { [splicer] rows, image in
            splicer.prepare(rows: rows, in: &image)
        }
        annotator?.compositor.willChange = prepare
        map?.willChange = prepare
        defer {
            annotator?.compositor.willChange = nil
            map?.willChange = nil
        }
        body(&canvas)
        if measures {
            touchedShare = Double(splicer.touchedIntervals.count) / Double(max(1, splicer.intervalCount))
        }
        do {
            return .spliced(try splicer.finish(&canvas))
        } catch {
            return splicer.refusal == nil ? .damaged("\(error)") : .notSpliced
        }
    }
}
