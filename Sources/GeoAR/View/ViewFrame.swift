import ARCompositor

/// The part of the output frames a view draws into, as fractions of their width and height: the
/// whole frame for an AR view, the whole frame or a part of it for a map view (an inset over the
/// camera's picture, which shows around it). The counterpart of a UIKit view's frame in its
/// superview.
///
/// An AR view draws over the whole frame, always: its overlay is projected through the camera, whose
/// picture is the whole frame; a view built with another frame fails when presented.
public struct ViewFrame: Sendable, Equatable {
    /// Left edge, 0–1.
    public var x: Double
    /// Top edge, 0–1.
    public var y: Double
    /// Width, 0–1.
    public var width: Double
    /// Height, 0–1.
    public var height: Double

    /// Creates a frame from fractions.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole frame.
    public static let full = ViewFrame(x: 0, y: 0, width: 1, height: 1)

    /// What is wrong with these fractions, if anything: each part a finite number, the width and
    /// height above 0, and the whole inside the frame.
    public var problem: String? {
        let parts = [x, y, width, height]
        guard parts.allSatisfy(\.isFinite), x >= 0, y >= 0, width > 0, height > 0, x + width <= 1 + 1e-9,
            y + height <= 1 + 1e-9
        else {
            return "the view's frame \(self) is not a part of the output frame: x and y from 0, width and height "
                + "above 0, x + width and y + height at most 1"
        }
        return nil
    }

    /// The part of a `width`×`height` frame this covers, in whole pixels (at least one).
    func rect(width frameWidth: Int, height frameHeight: Int) -> MapRect {
        let left = min(Int((x * Double(frameWidth)).rounded()), frameWidth - 1)
        let top = min(Int((y * Double(frameHeight)).rounded()), frameHeight - 1)
        let right = min(Int(((x + width) * Double(frameWidth)).rounded()), frameWidth)
        let bottom = min(Int(((y + height) * Double(frameHeight)).rounded()), frameHeight)
        return MapRect(x: left, y: top, width: max(1, right - left), height: max(1, bottom - top))
    }
}
