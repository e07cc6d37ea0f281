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

    init(view: GeoARView, tracker: LivePoseTracker, annotator: LiveAnnotator) {
        self.view = view
        self.tracker = tracker
        self.annotator = annotator
        keepsRecords = view.configuration.sidecar != nil
        selectsCenter = view.configuration.selectsCenter
    }

    func process(_ frame: VideoFrame, number: Int) -> LiveStageOutcome {
        guard let view, let map = view.session.mapDataSnapshot else { return .passThrough(record: nil) }
        // Nothing to draw: the camera's MJPEG goes out untouched, as without a view.
        let data = map.data
        guard !data.pointsOfInterest.isEmpty || data.route != nil || data.banner != nil else {
            return .passThrough(record: record(for: frame, number: number, pose: nil, reason: nil))
        }
        let pose: LivePoseTracker.LivePose
        switch tracker.pose(atMonotonicNanoseconds: frame.timestampNanoseconds) {
        case .failure(let reason):
            return .passThrough(record: record(for: frame, number: number, pose: nil, reason: reason.description))
        case .success(let found):
            pose = found
        }
        let selection = view.currentSelection()
        let drawn: LiveAnnotator.Drawn
        do {
            drawn = try annotator.draw(frame, pose: pose, map: map, selection: selection, frameNumber: number)
        } catch {
            switch error {
            case .frame(let problem): return .damaged(problem.description)
            case .configuration(let message): return .failed(message)
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
        if let jpeg = drawn.jpeg { return .annotatedJPEG(jpeg, record: record) }
        return .annotated(drawn.image, record: record, notSpliced: drawn.notSpliced)
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
