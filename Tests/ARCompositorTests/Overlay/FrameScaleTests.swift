import Foundation
import Testing

@testable import ARCompositor
@testable import ArcaptureCore

/// What is drawn grows with the frame as text does (issue 39, item 9): at 4K the same place's dot,
/// gap and leader are three times a 720p frame's, where before they stayed 5 to 14 pixels beside
/// 60-pixel text.
@Suite("Overlay sizes on large frames")
struct FrameScaleTests {
    /// The one POI's marker radius and the drawn label's height on a `width`×`height` frame.
    func drawn(width: Int, height: Int) throws -> (radius: Double, labelHeight: Double) {
        let origin = (latitude: 45.2735, longitude: 13.7142)
        let place = LocalFrame(latitude: origin.latitude, longitude: origin.longitude, altitude: 0)
            .ecef(of: ENUVector(east: 0, north: 2000, up: 0)).geodetic
        let annotator = try FrameAnnotator(
            pointsOfInterest: [
                PointOfInterest(
                    id: "p", name: "Place", latitude: place.latitude, longitude: place.longitude, altitude: 0)
            ], route: nil)
        var image = YCbCrImage(width: width, height: height, subsampling: .s420)
        let drawn = annotator.annotate(
            &image,
            pose: DevicePose(
                latitude: origin.latitude, longitude: origin.longitude, altitude: 2,
                orientation: DeviceOrientation(heading: 0, pitch: 0, roll: 0)),
            camera: CameraModel(horizontalFieldOfView: 70, width: width, height: height), groundAltitude: 0)
        let marker = try #require(drawn.layout.markers.first)
        let label = try #require(drawn.layout.labels.first)
        return (marker.radius, label.height)
    }

    @Test("a 3840×2160 frame's marker is three times a 1280×720 frame's, in step with its label")
    func markersScale() throws {
        let hd = try drawn(width: 1280, height: 720)
        let uhd = try drawn(width: 3840, height: 2160)
        #expect(abs(uhd.radius / hd.radius - 3) < 1e-9, "\(hd.radius) px at 720p, \(uhd.radius) px at 4K")
        // The label (text) grew about as much.
        #expect(abs(uhd.labelHeight / hd.labelHeight - 3) < 0.3, "\(hd.labelHeight) px, \(uhd.labelHeight) px")
        // Frames up to 720 rows keep the style's sizes.
        #expect(try drawn(width: 640, height: 480).radius == hd.radius)
    }
}
