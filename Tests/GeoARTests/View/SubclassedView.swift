import GeoAR

/// A program's own view type, as seed 002's factory makes one: built by the factory closure with
/// the frame, session and configuration it is handed.
final class SubclassedView: GeoARView, @unchecked Sendable {
    /// The frame the factory was handed, as the subclass saw it in its initialiser.
    let frameAtInit: ViewFrame

    required init(frame: ViewFrame, session: ARSession, configuration: GeoARConfiguration) {
        frameAtInit = frame
        super.init(frame: frame, session: session, configuration: configuration)
    }
}
