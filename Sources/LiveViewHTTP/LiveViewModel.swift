/// What a ``LiveViewServer`` shows and changes: the view behind `/state` and `/select`.
public protocol LiveViewModel: Sendable {
    /// The state now, with the server's `/stream` clients.
    func state(clients: [LiveViewState.Client]) -> LiveViewState
    /// Selects `ids` (replacing the selection) unless some are not points of interest the view
    /// has; returns those, and changes nothing when there are any.
    func select(_ ids: Set<String>) -> Set<String>
    /// Clears the selection.
    func clearSelection()
}
