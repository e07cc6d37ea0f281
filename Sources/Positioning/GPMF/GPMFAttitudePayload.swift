/// The camera's attitude in one GPMF payload (GoPro HERO8 and later, MAX): GRAV, the direction
/// of gravity in the camera body's frame; IORI, the image's orientation relative to the body
/// (what HyperSmooth and horizon levelling turn the picture by); and CORI, the body's orientation
/// relative to where it was when the recording began: all at the frame rate.
///
/// Axes, as read from GoPro's sample clip (its documentation does not give them): the body's x
/// points right, y down and z forward, as a camera frame's (geometry.md §3). An upright camera's
/// GRAV is about (0, 1, 0); the clip's first frames, which look down at the path, have z > 0; and
/// GRAV turned by IORI has a roll of 0.0 ± 0.1° in every frame of the clip, recorded with horizon
/// levelling on, where GRAV alone leans up to 12°. CORI uses the same axes and turns the start's
/// frame into the body's: gravity turned back by it (q⁻¹·g·q) stays within 2.2° of one direction
/// over the clip, where the body's own GRAV moves through 15°.
public struct GPMFAttitudePayload: Sendable, Equatable {
    /// Gravity's direction in the body's frame, one (x, y, z) a sample, scaled by SCAL.
    public var gravity: [[Double]] = []
    /// The image's orientation relative to the body, one quaternion (w, x, y, z) a sample.
    public var imageOrientation: [[Double]] = []
    /// The body's orientation relative to the recording's start, one quaternion (w, x, y, z) a
    /// sample.
    public var cameraOrientation: [[Double]] = []

    /// The attitude in `items` (a payload's `DEVC`s and their `STRM`s), nil without GRAV.
    ///
    /// - Throws: ``GPMFError`` when GRAV, IORI or CORI is damaged: not 16-bit values, the wrong number of
    ///   them a sample, a scale of zero.
    public static func decode(_ items: [GPMFItem]) throws(GPMFError) -> GPMFAttitudePayload? {
        var payload = GPMFAttitudePayload()
        for device in items where device.key == "DEVC" {
            for stream in device.children where stream.key == "STRM" {
                var scale: [Double] = []
                for item in stream.children {
                    switch item.key {
                    case "SCAL": scale = try item.numbers()
                    case "GRAV": payload.gravity = try vectors(item, values: 3, scale: scale)
                    case "IORI": payload.imageOrientation = try vectors(item, values: 4, scale: scale)
                    case "CORI": payload.cameraOrientation = try vectors(item, values: 4, scale: scale)
                    default: break
                    }
                }
            }
        }
        return payload.gravity.isEmpty ? nil : payload
    }

    /// An item's samples of `values` signed 16-bit values each, divided by the stream's scale.
    private static func vectors(_ item: GPMFItem, values: Int, scale: [Double]) throws(GPMFError) -> [[Double]] {
        guard item.type == UInt8(ascii: "s"), item.sampleSize == 2 * values else {
            throw GPMFError(
                offset: item.offset,
                problem:
                    "\(item.key) samples are '\(GPMFItem.typeName(item.type))' of \(item.sampleSize) bytes, not 's' of \(2 * values)"
            )
        }
        guard scale.count == 1, let divisor = scale.first, divisor != 0, divisor.isFinite else {
            throw GPMFError(offset: item.offset, problem: "\(item.key) has no single non-zero SCAL before it")
        }
        let numbers = try item.numbers()
        return stride(from: 0, to: numbers.count - values + 1, by: values).map { start in
            numbers[start..<start + values].map { $0 / divisor }
        }
    }
}
