import ARCompositor
import CaptureKit
import Positioning

/// Describes an AR view and presents it: the counterpart of the geo-AR SDK's SwiftUI `GeoAR`,
/// with its modifiers as methods that return a changed copy.
///
/// ```swift
/// let session = ARSession(files: MapDataFiles(pointsOfInterest: "pois.geojson"))
/// let navigation = GeoARBinding<NavigationInfo?>(nil)
/// GeoAR(session: session, configuration: configuration)
///     .onLoaded { view in
///         // the view cannot position itself without a location source
///         view.locationManager.locationSource = GPSDLocationSource()
///     }
///     .onFailed { print("Failed to load the AR view: \($0)") }
///     .navigationInfo(navigation)
///     .present()
/// ```
///
/// Observation modifiers compose: ``onLoaded(_:)`` twice runs both handlers. Bindings are single:
/// ``navigationInfo(_:)`` twice keeps only the last. To subclass ``GeoARView``, give the factory:
///
/// ```swift
/// GeoAR(session: session, configuration: configuration) { frame, session, configuration in
///     MyARView(frame: frame, session: session, configuration: configuration)
/// }
/// ```
public struct GeoAR: Sendable {
    /// Makes the view: `GeoARView.init`, or a subclass's.
    public typealias Factory = @Sendable (ViewFrame, ARSession, GeoARConfiguration) -> GeoARView

    /// The session the view shares.
    public let session: ARSession
    /// How the view is built.
    public let configuration: GeoARConfiguration
    /// The part of the output frames it draws into.
    public var frame: ViewFrame = .full
    private let factory: Factory
    private var loaded: [@Sendable (GeoARView) -> Void] = []
    private var failed: [@Sendable (GeoARError) -> Void] = []
    private var phases: [@Sendable (LoadPhase) -> Void] = []
    private var coordinates: [@Sendable (GeodeticCoordinate) -> Void] = []
    private var navigation: GeoARBinding<NavigationInfo?>?
    private var selection: GeoARBinding<Set<String>>?

    /// Describes a view over `session`, built by `factory` (a subclass's initialiser).
    public init(
        session: ARSession, configuration: GeoARConfiguration,
        factory: @escaping Factory = { GeoARView(frame: $0, session: $1, configuration: $2) }
    ) {
        self.session = session
        self.configuration = configuration
        self.factory = factory
    }

    /// The loaded view, once. Composes.
    public func onLoaded(_ handler: @escaping @Sendable (GeoARView) -> Void) -> GeoAR {
        var copy = self
        copy.loaded.append(handler)
        return copy
    }

    /// The failure, if loading or running fails. Composes.
    public func onFailed(_ handler: @escaping @Sendable (GeoARError) -> Void) -> GeoAR {
        var copy = self
        copy.failed.append(handler)
        return copy
    }

    /// Every phase transition. Composes.
    public func onPhaseChange(_ handler: @escaping @Sendable (LoadPhase) -> Void) -> GeoAR {
        var copy = self
        copy.phases.append(handler)
        return copy
    }

    /// The user's position as it updates. Composes.
    public func userCoordinate(_ handler: @escaping @Sendable (GeodeticCoordinate) -> Void) -> GeoAR {
        var copy = self
        copy.coordinates.append(handler)
        return copy
    }

    /// Navigation info, reset to nil when it stops. Single: the last binding given wins.
    public func navigationInfo(_ binding: GeoARBinding<NavigationInfo?>) -> GeoAR {
        var copy = self
        copy.navigation = binding
        return copy
    }

    /// The selected POIs' ids, both ways. Single: the last binding given wins.
    public func selectedPOIs(_ binding: GeoARBinding<Set<String>>) -> GeoAR {
        var copy = self
        copy.selection = binding
        return copy
    }

    /// Builds the view through the factory, gives it the handlers and bindings, and presents it.
    ///
    /// - Returns: the view (the handle ``onLoaded(_:)`` also hands out). Hold it weakly: the
    ///   library keeps it while its pipeline runs, and lets it go when it stops.
    @discardableResult
    public func present() -> GeoARView {
        let view = build()
        view.present()
        return view
    }

    /// Builds the view through the factory and gives it the handlers and bindings, without
    /// presenting it: for a program in structured concurrency, which takes the view's sequences
    /// (``GeoARView/phases``, ``GeoARView/userCoordinates``) before ``GeoARView/run()`` presents
    /// it, so that they hear its first phase too.
    public func build() -> GeoARView {
        let view = factory(frame, session, configuration)
        for handler in loaded { view.onLoaded(handler) }
        for handler in failed { view.onFailed(handler) }
        for handler in phases { view.onPhaseChange(handler) }
        for handler in coordinates { view.userCoordinate(handler) }
        if let navigation { view.navigationInfo(navigation) }
        if let selection { view.selectedPOIs(selection) }
        return view
    }
}
