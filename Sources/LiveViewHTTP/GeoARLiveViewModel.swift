import GeoAR

/// A `GeoARView` as a ``LiveViewServer`` shows it: its state, and its selection (the view's
/// `selectedPOIs` binding, with a person in a browser at the other end).
public final class GeoARLiveViewModel: LiveViewModel {
    // Weak: a server outliving its view (stopped, let go by the program) must not keep it, its
    // session and its map data alive; its page then says the view is gone.
    private weak let view: GeoARView?
    private let device: String
    private let source: String
    private let broadcast: FrameBroadcast

    /// The model of `view`, capturing from `device`, located by `source` (its name), whose frames
    /// go to `broadcast`. The view is held weakly: once the program lets it go, `/state` says
    /// `gone` and `/select` knows no points of interest.
    public init(view: GeoARView, device: String, source: String, broadcast: FrameBroadcast) {
        self.view = view
        self.device = device
        self.source = source
        self.broadcast = broadcast
    }

    /// The view's state now, with `clients`.
    public func state(clients: [LiveViewState.Client]) -> LiveViewState {
        guard let view else { return LiveViewState(phase: "gone", fps: broadcast.measuredRate, clients: clients) }
        return LiveViewState(view: view, device: device, source: source, broadcast: broadcast, clients: clients)
    }

    /// Selects `ids` as the view's user (the session's selection and the view's binding, whose
    /// `onChange` handlers hear of it) unless some are not among the session's points of
    /// interest; returns those.
    public func select(_ ids: Set<String>) -> Set<String> {
        let known = Set(view?.session.mapData?.pointsOfInterest.map(\.id) ?? [])
        let unknown = ids.subtracting(known)
        if unknown.isEmpty { view?.userSelected(ids) }
        return unknown
    }

    /// Clears the view's selection, as its user (the binding's handlers hear of it).
    public func clearSelection() {
        view?.userSelected([])
    }
}
