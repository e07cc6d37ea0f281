import CaptureKit
import Foundation

@testable import ArcaptureCore
@testable import JPEGKit

/// Where two 640x480 frames of a view test differ in luma (by more than 8 levels), split between
/// the minimap's square and the rest of the frame.
///
/// The square is worked out here from the layout's rule (9/25 of the height, a margin of 1/36 in
/// from the top right), not taken from the code under test, with two pixels of slack for JPEG.
struct LumaDifference {
    /// The inset's side in a 480-row frame.
    static let side = 480 * 9 / 25
    private static let margin = 480 / 36

    /// Pixels that differ inside the square.
    private(set) var inside = 0
    /// Pixels that differ elsewhere.
    private(set) var outside = 0
    /// Pixels that differ anywhere.
    var total: Int { inside + outside }

    /// Compares `a` and `b`, both 640x480.
    init(_ a: YCbCrImage, _ b: YCbCrImage) {
        let (side, margin) = (Self.side, Self.margin)
        for y in 0..<480 {
            for x in 0..<640 where abs(Int(a.planes[0][x, y]) - Int(b.planes[0][x, y])) > 8 {
                if x >= 640 - side - margin - 2 && x <= 640 - margin + 2 && y >= margin - 2 && y <= margin + side + 2 {
                    inside += 1
                } else {
                    outside += 1
                }
            }
        }
    }

    /// A JPEG file decoded by libjpeg-turbo.
    static func decode(_ url: URL) throws -> YCbCrImage {
        try JPEGDecoder().decode(Array(try Data(contentsOf: url)))
    }
}
