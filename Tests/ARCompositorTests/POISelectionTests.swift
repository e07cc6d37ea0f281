import Testing

@testable import ARCompositor

/// Selection by id or name.
@Suite("POI selection")
struct POISelectionTests {
    private let pois = [
        PointOfInterest(id: "node/1", name: "Kauppatori", latitude: 60.1675, longitude: 24.9525),
        PointOfInterest(id: "node/2", name: "Kauppatori", latitude: 60.1676, longitude: 24.9526),
        PointOfInterest(id: "way/3", name: "Tuomiokirkko", latitude: 60.1705, longitude: 24.9522),
    ]

    @Test("an id selects itself, a name every POI of that name (any case), the rest is returned")
    func resolve() {
        let (ids, unmatched) = POISelection.resolve(["way/3", "kauppatori", "Nowhere", "node/9"], among: pois)
        #expect(ids == ["way/3", "node/1", "node/2"])
        #expect(unmatched == ["Nowhere", "node/9"])
        #expect(POISelection.resolve([], among: pois).ids.isEmpty)
    }
}
