import ARCompositor

/// The session's map view: a plan view of the same session, drawn over each whole frame instead of
/// the camera's picture (POIs, the route, the user's position, heading and recent track, north-up
/// or heading-up as ``GeoARConfiguration/minimap`` says, else heading-up).
///
/// Its ``GeoARView/frame`` is the part of each frame the plan covers: the whole frame, or an inset
/// with the camera's (or footage's) picture around it, such as `ViewFrame(x: 0.7, y: 0, width:
/// 0.3, height: 0.3)`.
///
/// It takes the session's map-view slot, so an AR view and a map view can share one session: the
/// selection is one (select in either, highlighted in both on their next frames) and the map's
/// navigation info is the AR view's. A second map view on the session takes the slot, as a second
/// AR view does. Build one through ``GeoAR``'s factory:
///
/// ```swift
/// GeoAR(session: session, configuration: mapConfiguration) { GeoMapView(frame: $0, session: $1, configuration: $2) }
///     .present()
/// ```
public final class GeoMapView: GeoARView, @unchecked Sendable {
    /// The map view's slot.
    public override var kind: ViewKind { .map }
}
