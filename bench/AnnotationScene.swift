import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation

/// The scene the compositor's budget is stated for: on a 1280x720 frame, 20 labelled POIs in view
/// (50–600 m ahead, spread across the view), a route running ahead with a left turn 80 m away (so
/// the ribbon, the ground arrow and the panel are all drawn), at a pose in central Helsinki.
struct AnnotationScene {
    let annotator: FrameAnnotator
    /// The POIs and the route, for pipelines that draw the same scene.
    let points: [PointOfInterest]
    let route: NavigationRoute
    let pose: DevicePose
    let camera: CameraModel
    let groundAltitude: Double

    /// The scene on a `width` x `height` frame (the camera's focal length scaled with the width),
    /// drawing `layers`.
    init(width: Int = 1280, height: Int = 720, layers: Set<OverlayLayer> = Set(OverlayLayer.allCases)) throws {
        let latitude = 60.16880
        let longitude = 24.95200
        let frame = LocalFrame(latitude: latitude, longitude: longitude, altitude: 0)
        func place(east: Double, north: Double) -> (latitude: Double, longitude: Double) {
            let point = frame.ecef(of: ENUVector(east: east, north: north, up: 0)).geodetic
            return (point.latitude, point.longitude)
        }
        let names = [
            "Tuomiokirkko", "Kansallisarkisto", "Säätytalo", "Café Engel", "Yliopiston kirjasto", "Ateneum",
            "Kauppatori", "Vanha kauppahalli", "Uspenskin katedraali", "Presidentinlinna", "Korkein oikeus",
            "Sederholmin talo", "Helsingin kaupungintalo", "Allas Sea Pool", "SkyWheel", "Tori Quarters",
            "Kiseleffin talo", "Ravintola Savoy", "Esplanadi", "Havis Amanda",
        ]
        let points = names.enumerated().map { index, name -> PointOfInterest in
            // Bearings −32…+32° and distances 50…600 m, deterministic.
            let bearing = (Double(index) / 19 - 0.5) * 64 * .pi / 180
            let distance = 50 + Double((index * 7) % 20) / 19 * 550
            let position = place(east: sin(bearing) * distance, north: cos(bearing) * distance)
            return PointOfInterest(
                id: "poi-\(index)", name: name, latitude: position.latitude, longitude: position.longitude,
                altitude: 30 + Double(index % 4) * 6)
        }
        let geoRoute = GeoRoute(
            id: "walk",
            vertices: [(0.0, -5.0), (0, 80), (-120, 85), (-130, 300)].map {
                let point = place(east: $0.0, north: $0.1)
                return GeoRoute.Vertex(latitude: point.latitude, longitude: point.longitude)
            })
        var layout = MarkerLayoutOptions()
        layout.maximumMarkers = 20
        self.points = points
        guard let route = NavigationRoute(geoRoute) else { throw SceneError(what: "the scene's route") }
        self.route = route
        var style = OverlayStyle()
        style.layers = layers
        annotator = try FrameAnnotator(pointsOfInterest: points, route: route, style: style, layout: layout)
        pose = DevicePose(
            latitude: latitude, longitude: longitude, altitude: 31.5,
            orientation: DeviceOrientation(heading: 0, pitch: 2, roll: 0))
        let scale = Double(width) / 1280
        camera = CameraModel(
            width: width, height: height,
            intrinsics: CameraIntrinsics(
                fx: 914 * scale, fy: 914 * scale, cx: Double(width) / 2, cy: Double(height) / 2),
            distortion: .plumbBob(k1: -0.05, k2: 0.01, p1: 0, p2: 0, k3: 0))
        groundAltitude = 30
    }

    /// Draws the whole overlay for one frame.
    @discardableResult
    func draw(on image: inout YCbCrImage) -> FrameAnnotation {
        annotator.annotate(&image, pose: pose, camera: camera, groundAltitude: groundAltitude, speed: 1.4)
    }
}

/// The scene could not be built.
struct SceneError: Error {
    let what: String
}
