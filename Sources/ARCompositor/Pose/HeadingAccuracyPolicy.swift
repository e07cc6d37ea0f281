/// How markers respond to an uncertain heading: full strength up to ``fadeFrom`` degrees, fading
/// linearly to nothing at ``hideFrom`` degrees and beyond.
///
/// A marker drawn 20° off is worse than no marker; a slightly faded one tells the viewer the
/// direction is rough. An unknown accuracy counts as good (a fixed mount given by the user).
public struct HeadingAccuracyPolicy: Hashable, Sendable {
    /// Errors up to this (degrees) draw at full opacity.
    public var fadeFrom: Double
    /// Errors from this (degrees) hide markers.
    public var hideFrom: Double

    /// Creates a policy; defaults fade from 10° and hide from 30°.
    public init(fadeFrom: Double = 10, hideFrom: Double = 30) {
        self.fadeFrom = fadeFrom
        self.hideFrom = max(hideFrom, fadeFrom)
    }

    /// The opacity, 0…1, for a heading error of `accuracy` degrees.
    public func opacity(headingAccuracy accuracy: Double?) -> Double {
        guard let accuracy else { return 1 }
        if accuracy <= fadeFrom { return 1 }
        if accuracy >= hideFrom { return 0 }
        return (hideFrom - accuracy) / (hideFrom - fadeFrom)
    }
}
