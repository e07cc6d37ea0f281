import ArcaptureCore
import CaptureKit
import Positioning

/// Where a view's position (and orientation) comes from: the geo-AR SDK's location manager.
///
/// **Capture starts when a location source is assigned**, not when the view is created or
/// presented: a camera view opens its camera then, a footage view starts reading. Setting the
/// source to nil stops capture and closes the camera. Pose sources (an IMU) add orientations.
///
/// This type is thread-safe; the work an assignment starts runs on the view's own queue.
public final class LocationManager: Sendable {
    private struct State {
        var source: (any LocationSource)?
        var poseSources: [any PoseSource] = []
    }

    private let state = Locked(State())
    private let changed = Locked<(@Sendable ((any LocationSource)?) -> Void)?>(nil)

    init() {}

    /// Sets what an assignment does (the view's reaction), once the view exists.
    func onChange(_ handler: @escaping @Sendable ((any LocationSource)?) -> Void) {
        changed.withLock { $0 = handler }
    }

    /// The location source: gpsd, a serial receiver, a recorded track, a fixed position. Assigning
    /// one starts capture; nil stops it.
    public var locationSource: (any LocationSource)? {
        get { state.withLock { $0.source } }
        set {
            let previous = state.withLock { state in
                defer { state.source = newValue }
                return state.source
            }
            guard previous !== newValue else { return }
            changed.withLock { $0 }?(newValue)
        }
    }

    /// Sources of orientation besides the location source (an IMU through IIO): their samples are
    /// used when they arrive, instead of the direction of travel. Set them before the location
    /// source.
    public var poseSources: [any PoseSource] {
        get { state.withLock { $0.poseSources } }
        set { state.withLock { $0.poseSources = newValue } }
    }
}
