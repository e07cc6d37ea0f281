import ARCompositor

/// One element of `arcapture project --json`: exactly the fields geometry spec §5 names.
struct ProjectedPointReport: Encodable, Sendable {
    let id: String
    let name: String
    let u: Nullable<Double>
    let v: Nullable<Double>
    let depth: Double
    let distanceM: Double
    let bearingDeg: Double
    let elevationDeg: Double
    let inView: Bool

    init(_ result: ProjectedPointOfInterest) {
        id = result.pointOfInterest.id
        name = result.pointOfInterest.name
        u = Nullable(result.pixel?.u)
        v = Nullable(result.pixel?.v)
        depth = result.depth
        distanceM = result.distance
        bearingDeg = result.bearing
        elevationDeg = result.elevation
        inView = result.inView
    }
}
