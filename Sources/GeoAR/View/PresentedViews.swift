import ArcaptureCore
import CaptureKit

/// The views being presented: the library keeps each alive from ``GeoARView/present()`` until its
/// pipeline has stopped, as a window keeps its views, and lets it go then.
final class PresentedViews: Sendable {
    static let shared = PresentedViews()
    private let views = Locked<[ObjectIdentifier: GeoARView]>([:])

    /// Keeps `view` alive.
    func keep(_ view: GeoARView) {
        views.withLock { $0[ObjectIdentifier(view)] = view }
    }

    /// Lets `view` go.
    func release(_ view: GeoARView) {
        _ = views.withLock { $0.removeValue(forKey: ObjectIdentifier(view)) }
    }
}
