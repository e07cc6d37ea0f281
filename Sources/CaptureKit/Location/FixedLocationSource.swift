/// A location source that always reports the same position, as given on a command line
/// (`--location LAT,LON[,ALT]`) or for a camera on a fixed mount.
public final class FixedLocationSource: LocationSource {
    /// The position.
    public let coordinate: GeodeticCoordinate

    /// Creates a source at `coordinate`.
    public init(_ coordinate: GeodeticCoordinate) { self.coordinate = coordinate }

    /// `fixed LAT,LON[,ALT]`.
    public var name: String { "fixed \(coordinate)" }

    /// Always ``coordinate``.
    public var currentCoordinate: GeodeticCoordinate? { coordinate }
}
