import ARCompositor
import Testing

@_spi(Testing) @testable import GeoAR

/// An AR view on the scripted camera and a map view on one navigating session, both running, each
/// with a navigation binding and fixtures of its own: what the shared-session tests start from.
struct ViewPair {
    let arFixtures: ViewFixtures
    let mapFixtures: ViewFixtures
    let session: ARSession
    let ar: GeoARView
    let map: GeoARView
    let arNavigation = GeoARBinding<NavigationInfo?>(nil)
    let mapNavigation = GeoARBinding<NavigationInfo?>(nil)

    /// Both views running; the map view's configuration changed by `mapChange`, given its fixtures.
    init(mapChange: (ViewFixtures) -> (inout GeoARConfiguration) -> Void = { _ in { _ in } }) throws {
        arFixtures = try ViewFixtures()
        mapFixtures = try ViewFixtures()
        // A route north from the camera, past the POIs: the AR view follows it.
        session = try ViewFixtures.navigatingSession()
        (ar, _) = try arFixtures.running(session: session)
        (map, _) = try mapFixtures.running(session: session, map: true, change: mapChange(mapFixtures))
        ar.navigationInfo(arNavigation)
        map.navigationInfo(mapNavigation)
    }

    func remove() {
        arFixtures.remove()
        mapFixtures.remove()
    }
}
