import ARCompositor
import ArcaptureCore
import CaptureKit

/// Map data loaded once and shared by the views of a program: the counterpart of the geo-AR SDK's
/// session. Create it above the views (in the program's state, not per view) and pass it down.
///
/// - Map data (POIs, the route, the style) comes from values at once, or from files loaded the
///   first time a view presents (its ``LoadPhase/loadingMapData`` phase), once for all views.
/// - It changes at run time (``add(_:)``, ``remove(ids:)``, ``filter(_:)``, ``setRoute(_:)``): every
///   view shows the change from its next frame.
/// - Selection and navigation live here, so an AR view and a map view on one session agree:
///   select in one, it is highlighted in the other on its next frame.
/// - One view of each kind at a time: a second view of the same kind takes the renderer slot; the
///   older one keeps drawing frames but stops receiving updates, and an error naming the fix is
///   logged.
///
/// This type is thread-safe.
public final class ARSession: Sendable {
    private struct Slot: @unchecked Sendable {
        // Weak: the session does not keep a view alive (the view's pipeline does, while it runs).
        weak var view: GeoARView?
    }

    private struct State {
        var files: MapDataFiles?
        var loaded: Result<MapData, InputFileError>?
        var loads = 0
        var version = 0
        /// Grows when the route, style or banner may have changed (navigation starts again).
        var layoutVersion = 0
        var selection: Set<String> = []
        var selectionVersion = 0
        var navigation: NavigationInfo?
        var slots: [ViewKind: Slot] = [:]
    }

    private let state: Locked<State>
    /// Held while the files are read.
    private let loading = Locked(())

    /// How many times the files were read (tests: once, whatever the views).
    var loadCount: Int { state.withLock { $0.loads } }

    /// A session over map data given as values: nothing to load.
    public init(mapData: MapData) {
        state = Locked(State(loaded: .success(mapData)))
    }

    /// A session whose map data is read from `files` when the first view presents.
    public init(files: MapDataFiles) {
        state = Locked(State(files: files))
    }

    /// Loads the map data if it is not loaded yet (once: later calls return the same data, or the
    /// same error), and returns it.
    ///
    /// - Throws: `InputFileError` naming the file, the line or feature, and the field.
    @discardableResult
    public func load() throws(InputFileError) -> MapData {
        if let loaded = state.withLock({ $0.loaded }) { return try loaded.get() }
        // One load at a time, outside the state's lock (which frames read): two views presenting
        // at once read the files once, the second waiting for the first's result.
        return try loading.withLock { _ throws(InputFileError) -> MapData in
            let (loaded, files) = state.withLock { ($0.loaded, $0.files) }
            if let loaded { return try loaded.get() }
            let result = Result { () throws(InputFileError) in try (files ?? MapDataFiles()).load() }
            state.withLock { state in
                state.loaded = result
                state.loads += 1
            }
            return try result.get()
        }
    }

    /// The map data, once loaded.
    public var mapData: MapData? { state.withLock { try? $0.loaded?.get() } }

    /// The map data with a number that grows with every change, for views to see changes.
    var mapDataSnapshot: MapDataSnapshot? {
        state.withLock { state in
            guard case .success(let data) = state.loaded else { return nil }
            return MapDataSnapshot(data: data, version: state.version, layoutVersion: state.layoutVersion)
        }
    }

    /// Changes the map data (any of it); views show the change from their next frame, and follow
    /// the route from its start again. Does nothing before the data is loaded.
    public func update(_ change: (inout MapData) -> Void) {
        apply(change, layout: true)
    }

    private func apply(_ change: (inout MapData) -> Void, layout: Bool) {
        state.withLock { state in
            guard case .success(var data) = state.loaded else { return }
            change(&data)
            state.loaded = .success(data)
            state.version += 1
            if layout { state.layoutVersion += 1 }
        }
    }

    /// Adds points of interest (replacing any with the same id).
    public func add(_ points: [PointOfInterest]) {
        let ids = Set(points.map(\.id))
        apply(
            { data in data.pointsOfInterest = data.pointsOfInterest.filter { !ids.contains($0.id) } + points },
            layout: false)
    }

    /// Removes the points of interest with these ids.
    public func remove(ids: Set<String>) {
        apply({ data in data.pointsOfInterest.removeAll { ids.contains($0.id) } }, layout: false)
    }

    /// Keeps only the points of interest for which `isIncluded` is true.
    public func filter(_ isIncluded: (PointOfInterest) -> Bool) {
        apply({ data in data.pointsOfInterest = data.pointsOfInterest.filter(isIncluded) }, layout: false)
    }

    /// Replaces the route (nil: none); navigation starts again on the new one.
    public func setRoute(_ route: NavigationRoute?) {
        update { data in data.route = route }
    }

    // MARK: Shared state

    /// The selected points of interest's ids, shared by the session's views.
    public var selectedPOIIDs: Set<String> {
        get { state.withLock { $0.selection } }
        set { setSelection(newValue) }
    }

    /// The selection and a number that grows with every change.
    var selectionSnapshot: (ids: Set<String>, version: Int) { state.withLock { ($0.selection, $0.selectionVersion) } }

    /// Sets the selection; returns whether it changed.
    @discardableResult
    func setSelection(_ ids: Set<String>) -> Bool {
        state.withLock { state in
            guard state.selection != ids else { return false }
            state.selection = ids
            state.selectionVersion += 1
            return true
        }
    }

    /// Where the traveller is on the route, as the last frame of the session's views found it;
    /// nil when not navigating.
    public internal(set) var navigationInfo: NavigationInfo? {
        get { state.withLock { $0.navigation } }
        set { state.withLock { $0.navigation = newValue } }
    }

    // MARK: Renderer slots

    /// Gives `view` the slot for its kind, and returns the view that held it, if one still does.
    func claimSlot(_ kind: ViewKind, for view: GeoARView) -> GeoARView? {
        state.withLock { state in
            let previous = state.slots[kind]?.view
            state.slots[kind] = Slot(view: view)
            return previous === view ? nil : previous
        }
    }

    /// Whether `view` holds the slot for its kind (and so receives updates).
    func holdsSlot(_ kind: ViewKind, _ view: GeoARView) -> Bool {
        state.withLock { $0.slots[kind]?.view === view }
    }

    /// Whether another view than `view` holds the slot for its kind: a displaced view writes
    /// nothing to the session (its selection and navigation are the newer view's to say).
    func isDisplaced(_ kind: ViewKind, _ view: GeoARView) -> Bool {
        state.withLock { state in state.slots[kind]?.view.map { $0 !== view } ?? false }
    }

    /// Gives the slot up, if `view` holds it.
    func releaseSlot(_ kind: ViewKind, for view: GeoARView) {
        state.withLock { state in
            if state.slots[kind]?.view === view { state.slots[kind] = nil }
        }
    }
}
