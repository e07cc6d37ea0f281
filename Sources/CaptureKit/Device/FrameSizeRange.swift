import ArcaptureCore

/// The frame sizes a driver offers for one pixel format, as `VIDIOC_ENUM_FRAMESIZES` reports them.
///
/// Most USB webcams list discrete sizes; some drivers (and many CSI sensors) give one stepwise or
/// continuous range instead.
public enum FrameSizeRange: Hashable, Sendable {
    /// Exactly this size.
    case discrete(FrameSize)
    /// Any size from `minimum` to `maximum` in steps of `step` on each axis.
    case stepwise(minimum: FrameSize, maximum: FrameSize, step: FrameSize)
    /// Any size from `minimum` to `maximum` (a step of 1).
    case continuous(minimum: FrameSize, maximum: FrameSize)

    /// Whether the driver can produce exactly `size`.
    public func contains(_ size: FrameSize) -> Bool {
        switch self {
        case .discrete(let only):
            return only == size
        case .continuous(let minimum, let maximum):
            return (minimum.width...maximum.width).contains(size.width)
                && (minimum.height...maximum.height).contains(size.height)
        case .stepwise(let minimum, let maximum, let step):
            guard (minimum.width...maximum.width).contains(size.width),
                (minimum.height...maximum.height).contains(size.height)
            else { return false }
            let stepWidth = max(step.width, 1)
            let stepHeight = max(step.height, 1)
            return (size.width - minimum.width) % stepWidth == 0
                && (size.height - minimum.height) % stepHeight == 0
        }
    }

    /// The size in this range closest to `size`: the size itself when it fits, else the nearest size
    /// on the range's grid, clamped to its bounds (the way drivers round in `VIDIOC_S_FMT`).
    public func nearest(to size: FrameSize) -> FrameSize {
        switch self {
        case .discrete(let only):
            return only
        case .continuous(let minimum, let maximum):
            return FrameSize(
                width: min(max(size.width, minimum.width), maximum.width),
                height: min(max(size.height, minimum.height), maximum.height)
            )
        case .stepwise(let minimum, let maximum, let step):
            func snap(_ value: UInt32, _ low: UInt32, _ high: UInt32, _ step: UInt32) -> UInt32 {
                let clamped = min(max(value, low), high)
                let step = max(step, 1)
                let steps = (clamped - low + step / 2) / step
                return min(low + steps * step, high - (high - low) % step)
            }
            return FrameSize(
                width: snap(size.width, minimum.width, maximum.width, step.width),
                height: snap(size.height, minimum.height, maximum.height, step.height)
            )
        }
    }

    /// The largest size in the range.
    public var largest: FrameSize {
        switch self {
        case .discrete(let size): size
        case .stepwise(_, let maximum, _), .continuous(_, let maximum): maximum
        }
    }
}
