import ArcaptureCore

extension CaptureDevice {
    /// Every mode the device advertises, in the driver's order: each format at each discrete size,
    /// and at both ends of a stepwise or continuous range (what v4l2-compliance tries of a range),
    /// each at the fastest rate listed there. A format whose sizes the driver does not enumerate
    /// has no mode: there is no size to ask for.
    public var modes: [CaptureMode] {
        var modes: [CaptureMode] = []
        for format in formats {
            for entry in format.frameSizes {
                let sizes: [FrameSize]
                switch entry.sizes {
                case .discrete(let size): sizes = [size]
                case .stepwise(let minimum, let maximum, _), .continuous(let minimum, let maximum):
                    sizes = minimum == maximum ? [maximum] : [minimum, maximum]
                }
                let rate = entry.frameIntervals.map(\.fastestRate).flatMap { $0 > 0 ? $0 : nil }
                for size in sizes {
                    let mode = CaptureMode(
                        pixelFormat: format.fourCC, isCompressed: format.pixelFormat.isCompressed, size: size,
                        framesPerSecond: rate)
                    if !modes.contains(mode) { modes.append(mode) }
                }
            }
        }
        return modes
    }
}
