import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation

/// A camera view's overlay between choosing a frame and writing it: each frame posed at its
/// capture time, drawn with the session's map data and selection, and what the frame showed
/// (navigation, the POI at the centre) handed back to the view.
///
/// - Important: Called only on the live capture's writer queue (``LiveFrameStage``).
final class ViewFrameStage: LiveFrameStage {
    private weak var view: GeoARView?
    private let tracker: LivePoseTracker
    private let annotator: LiveAnnotator
    private let keepsRecords: Bool
    private let selectsCenter: Bool
    /// Encodes photos (made on first use).
    private var stills: FrameJPEGWriter?

    init(view: GeoARView, tracker: LivePoseTracker, annotator: LiveAnnotator) {
        self.view = view
        self.tracker = tracker
        self.annotator = annotator
        keepsRecords = view.configuration.sidecar != nil
        selectsCenter = view.configuration.selectsCenter
    }

    /// A photo is asked for: the capture hands this stage frames its outputs do not write too.
    var wantsEveryFrame: Bool { view?.photos.isWaiting ?? false }

    func process(_ frame: VideoFrame, number: Int) -> LiveStageOutcome {
        guard let view else { return .passThrough(record: nil) }
        // A map view draws its plan unzoomed.
        let zoom = view.kind == .map ? 1 : view.zoomFactor
        let drawn = draw(frame, number: number, view: view, zoom: zoom)
        if view.photos.isWaiting { answerPhotos(view.photos, with: drawn, frame: frame) }
        return drawn.outcome
    }

    /// What ``draw(_:number:view:zoom:)`` made, with what a photo of it says.
    private struct Made {
        var outcome: LiveStageOutcome
        var pose: PoseEstimate?
        var unannotatedReason: String?
        var zoom: Double
    }

    private func draw(_ frame: VideoFrame, number: Int, view: GeoARView, zoom: Double) -> Made {
        guard let map = view.session.mapDataSnapshot else {
            return unposed(frame, record: nil, reason: "the session's map data is not loaded", zoom: zoom)
        }
        // Nothing to draw: the camera's MJPEG goes out untouched, as without a view.
        let data = map.data
        guard !data.pointsOfInterest.isEmpty || data.route != nil || data.banner != nil else {
            return unposed(
                frame, record: record(for: frame, number: number, pose: nil, reason: nil),
                reason: "the session has nothing to draw (no points of interest, route or banner)", zoom: zoom)
        }
        let pose: LivePoseTracker.LivePose
        switch tracker.pose(atMonotonicNanoseconds: frame.timestampNanoseconds) {
        case .failure(let reason):
            return unposed(
                frame, record: record(for: frame, number: number, pose: nil, reason: reason.description),
                reason: reason.description, zoom: zoom)
        case .success(let found):
            pose = found
        }
        let selection = view.currentSelection()
        let drawn: LiveAnnotator.Drawn
        do {
            drawn = try annotator.draw(
                frame, pose: pose, map: map, selection: selection, frameNumber: number, zoom: zoom)
        } catch {
            switch error {
            case .frame(let problem): return Made(outcome: .damaged(problem.description), zoom: 1)
            case .configuration(let message): return Made(outcome: .failed(message), zoom: 1)
            }
        }
        var record = record(for: frame, number: number, pose: pose, reason: nil)
        if let annotation = drawn.annotation {
            view.navigationChanged(annotation.navigation)
            if selectsCenter,
                let centre = Self.nearestToCentre(annotation.layout, width: drawn.size.width, height: drawn.size.height)
            {
                view.viewSelected([centre])
            }
            record?.add(annotation, units: annotator.distanceUnits)
        } else {
            // A map view follows the navigation the session's AR view works out.
            view.navigationChanged(view.session.navigationInfo)
        }
        if let jpeg = drawn.jpeg {
            return Made(outcome: .annotatedJPEG(jpeg, record: record), pose: pose.estimate, zoom: 1)
        }
        return Made(
            outcome: .annotated(drawn.image, record: record, notSpliced: drawn.notSpliced), pose: pose.estimate,
            zoom: zoom)
    }

    /// A frame with nothing drawn on it: as it came, or zoomed when the view is zoomed in (the
    /// picture must not jump back to the whole field of view while a fix is awaited).
    private func unposed(_ frame: VideoFrame, record: SidecarRecord?, reason: String, zoom: Double) -> Made {
        guard zoom > 1 else { return Made(outcome: .passThrough(record: record), unannotatedReason: reason, zoom: 1) }
        do {
            let image = try annotator.zoomed(frame, by: zoom)
            return Made(outcome: .unposed(image, record: record), unannotatedReason: reason, zoom: zoom)
        } catch {
            return Made(outcome: .damaged(error.description), zoom: 1)
        }
    }

    /// Answers the photos asked for with the frame just drawn (a damaged frame leaves them for the
    /// next; a failing overlay leaves them to the view's end).
    private func answerPhotos(_ photos: PendingPhotos, with made: Made, frame: VideoFrame) {
        switch made.outcome {
        case .damaged, .failed: return
        default: break
        }
        var encoded: [Int: Result<[UInt8], ViewPhotoError>] = [:]
        for request in photos.take() {
            let bytes = encoded[request.quality] ?? jpeg(of: made.outcome, frame: frame, quality: request.quality)
            encoded[request.quality] = bytes
            request.continuation.resume(
                returning: bytes.map { data in
                    ViewPhoto(
                        data: data, size: frame.format.size, sequence: frame.sequence, captureDate: frame.captureDate,
                        devicePath: frame.devicePath, pose: made.pose, unannotatedReason: made.unannotatedReason,
                        zoomFactor: made.zoom)
                })
        }
    }

    /// The JPEG of what the stage made of `frame`.
    private func jpeg(of outcome: LiveStageOutcome, frame: VideoFrame, quality: Int) -> Result<[UInt8], ViewPhotoError>
    {
        do {
            if stills == nil { stills = try FrameJPEGWriter() }
            guard let stills else { return .failure(.encoding("libjpeg-turbo could not be set up")) }
            switch outcome {
            case .annotatedJPEG(let bytes, _):
                return .success(bytes)
            case .annotated(let image, _, _), .unposed(let image, _):
                return .success(try stills.encode(image, quality: quality))
            case .passThrough, .damaged, .failed:
                return .success(try stills.jpeg(for: frame, quality: quality, validation: .decode).bytes)
            }
        } catch {
            return .failure(.encoding("\(error)"))
        }
    }

    func recycle(_ image: consuming YCbCrImage) {
        annotator.recycle(image)
    }

    /// The sidecar line for a frame (nil without a sidecar).
    private func record(
        for frame: VideoFrame, number: Int, pose: LivePoseTracker.LivePose?, reason: String?
    ) -> SidecarRecord? {
        guard keepsRecords else { return nil }
        var record = SidecarRecord(
            frame: number, file: nil, time: pose.map { JSONLinesLog.timestamp($0.receiverTime) },
            pose: pose?.estimate.pose)
        record.sequence = Int(frame.sequence)
        record.captureTime = JSONLinesLog.timestamp(frame.captureDate)
        if let pose {
            record.extrapolationS = (pose.estimate.extrapolation * 1000).rounded() / 1000
            record.fixTime = JSONLinesLog.timestamp(pose.fix.time)
            record.fixMode = pose.fix.mode.description
        }
        record.noPose = reason
        return record
    }

    /// The id of the marker drawn nearest the frame's centre.
    static func nearestToCentre(_ layout: MarkerLayout, width: Int, height: Int) -> String? {
        let centre = SIMD2(Double(width) / 2, Double(height) / 2)
        return layout.markers.min { a, b in
            let da = a.center - centre
            let db = b.center - centre
            return (da * da).sum() < (db * db).sum()
        }?.pointOfInterest.id
    }
}
