import ArcaptureCore

/// Chooses the best format, size and rate a device offers for a ``FormatRequest``, and says why.
///
/// The rules, in order of weight:
/// 1. **Size**: the requested size if offered, else the nearest one (the smallest that covers it, or
///    failing that the largest below it). Without a requested size, the driver's current size.
/// 2. **Rate**: a format that reaches the requested rate at that size beats one that does not. Without
///    a requested rate the goal is the fastest rate any candidate offers, up to 30 fps, so that at
///    1280x720 a webcam's 30 fps MJPEG beats its 10 fps YUYV.
/// 3. **Format**: among formats that meet the size and rate, uncompressed 4:2:2 (YUYV and its
///    orderings) first, as every UVC camera offers it and it needs no decoding; then MJPEG; then the
///    4:2:0 layouts; then greyscale. Formats CaptureKit does not handle natively (RGB, Bayer…) are
///    chosen only when asked for by name, or through libv4l2 when nothing else exists.
public enum FormatSelector {
    /// Why a request cannot be met from a format list.
    public enum Failure: Error, Hashable, Sendable {
        /// The requested format is not in the list.
        case unsupported(requested: FourCC, available: [FourCC])
        /// The list has no format CaptureKit handles natively: libv4l2 conversion is needed.
        case needsConversion(available: [FourCC])
    }

    /// Preference among formats handled natively (higher is better).
    static let nativePreference: [FourCC: Int] = [
        .yuyv: 10, .uyvy: 9, .yvyu: 9, .vyuy: 9, .mjpeg: 8, .jpeg: 7, .nv12: 6, .yuv420: 6,
        .nv21: 5, .yvu420: 5, .nv16: 5, .nv61: 5, .yuv422p: 5, .grey: 2,
    ]

    /// Whether CaptureKit handles `fourCC` without libv4l2.
    public static func isNative(_ fourCC: FourCC) -> Bool { nativePreference[fourCC] != nil }

    /// The rate sought when the caller names none: the fastest offered up to this.
    static let defaultRateGoal = 30.0

    /// Chooses a format for `request` from `formats`.
    ///
    /// - Parameters:
    ///   - request: what the caller wants.
    ///   - formats: what the device offers (through libv4l2 when `throughLibV4L2`).
    ///   - currentSize: the driver's current size, used when the request names none.
    ///   - throughLibV4L2: whether `formats` came through libv4l2 (which cannot add more).
    /// - Returns: the choice with its explanation, or why there is none.
    public static func choose(
        _ request: FormatRequest, from formats: [SupportedFormat], currentSize: FrameSize?,
        throughLibV4L2: Bool
    ) -> Result<FormatChoice, Failure> {
        let available = formats.map(\.fourCC)
        let candidates: [SupportedFormat]
        if let wanted = request.pixelFormat {
            guard let format = formats.first(where: { $0.fourCC == wanted }) else {
                if !throughLibV4L2 && request.conversion == .automatic {
                    return .failure(.needsConversion(available: available))
                }
                return .failure(.unsupported(requested: wanted, available: available))
            }
            candidates = [format]
        } else {
            candidates = formats.filter { isNative($0.fourCC) }
            if candidates.isEmpty {
                if !throughLibV4L2 && request.conversion != .native {
                    return .failure(.needsConversion(available: available))
                }
                return .failure(.unsupported(requested: "auto", available: available))
            }
        }
        let target = request.size ?? currentSize ?? FrameSize(width: 640, height: 480)
        let options = candidates.map { Option(format: $0, target: target, request: request) }
        let goal = request.framesPerSecond ?? min(options.map(\.rate).max() ?? 0, defaultRateGoal)
        guard let best = options.max(by: { $0.score(goal: goal).lexicographicallyPrecedes($1.score(goal: goal)) })
        else {
            return .failure(.unsupported(requested: request.pixelFormat ?? "auto", available: available))
        }
        let meeting = options.filter { $0.sizeExact == best.sizeExact && $0.meets(goal) == best.meets(goal) }
        var explanation = ["chose \(best.format.fourCC) \(best.size)\(best.interval.map { " at \($0)" } ?? "")"]
        explanation.append(
            formatReason(
                best, request: request, meeting: meeting, candidates: options.count, goal: goal,
                throughLibV4L2: throughLibV4L2))
        explanation.append(sizeReason(best, request: request, currentSize: currentSize))
        explanation.append(rateReason(best, request: request))
        return .success(
            FormatChoice(
                pixelFormat: best.format.fourCC, size: best.size, frameInterval: best.interval, explanation: explanation
            ))
    }

    private static func formatReason(
        _ best: Option, request: FormatRequest, meeting: [Option], candidates: Int, goal: Double, throughLibV4L2: Bool
    ) -> String {
        let name = "format \(best.format.fourCC) (\(best.format.pixelFormat.description))"
        let via = throughLibV4L2 && best.format.pixelFormat.isEmulated ? ", converted by libv4l2" : ""
        if request.pixelFormat != nil { return "\(name): as requested\(via)" }
        if meeting.count == 1 && candidates > 1 {
            return "\(name): the only format that meets \(best.size) at \(FrameInterval.formatRate(goal)) fps\(via)"
        }
        let others = meeting.filter { $0.format.fourCC != best.format.fourCC }.map(\.format.fourCC.description)
        let kind = kindDescription(best.format.fourCC)
        if others.isEmpty { return "\(name): \(kind)\(via)" }
        return "\(name): \(kind), preferred over \(others.prefix(3).joined(separator: ", "))"
            + "\(others.count > 3 ? " and \(others.count - 3) more" : "") that also meet the request\(via)"
    }

    private static func kindDescription(_ fourCC: FourCC) -> String {
        switch fourCC {
        case .yuyv, .uyvy, .yvyu, .vyuy: "uncompressed 4:2:2, no decoding needed"
        case .mjpeg, .jpeg: "compressed, the only way many USB cameras reach high rates"
        case .nv12, .nv21, .yuv420, .yvu420: "uncompressed 4:2:0"
        case .nv16, .nv61, .yuv422p: "uncompressed planar 4:2:2"
        case .grey: "greyscale"
        default: "handled as raw bytes"
        }
    }

    private static func sizeReason(_ best: Option, request: FormatRequest, currentSize: FrameSize?) -> String {
        guard best.hasSizeList else {
            return "size \(best.size): the driver does not list sizes; it decides when the format is set"
        }
        if let wanted = request.size {
            return best.sizeExact
                ? "size \(best.size): offered exactly"
                : "size \(best.size): the nearest offered to the requested \(wanted)"
        }
        if best.sizeExact, currentSize != nil {
            return "size \(best.size): the driver's current size (no size requested)"
        }
        return "size \(best.size): the nearest offered to \(best.target) (no size requested)"
    }

    private static func rateReason(_ best: Option, request: FormatRequest) -> String {
        guard let intervals = best.intervals else {
            if let fps = request.framesPerSecond {
                return "rate \(FrameInterval.formatRate(fps)) fps: requested; the driver lists no rates for this size"
            }
            return "rate: the driver lists no rates for this size; it keeps its own"
        }
        let rate = FrameInterval.formatRate(best.rate)
        if let fps = request.framesPerSecond {
            if intervals.offers(framesPerSecond: fps) { return "rate \(rate) fps: as requested" }
            return
                "rate \(rate) fps: the closest offered at \(best.size) (\(FrameInterval.formatRate(fps)) fps requested)"
        }
        let goal = FrameInterval.formatRate(defaultRateGoal)
        if intervals.listedRates.count == 1 {
            return "rate \(rate) fps: the only rate offered at \(best.size) (no rate requested)"
        }
        if best.rate > defaultRateGoal * 1.005 {
            return "rate \(rate) fps: the slowest offered at \(best.size); none is at or below \(goal) fps "
                + "(no rate requested)"
        }
        return "rate \(rate) fps: the fastest offered at \(best.size) up to \(goal) fps (no rate requested)"
    }

    /// One candidate format evaluated against the request.
    private struct Option {
        let format: SupportedFormat
        let target: FrameSize
        let size: FrameSize
        let sizeExact: Bool
        let hasSizeList: Bool
        let intervals: FrameIntervalRange?
        let interval: FrameInterval?
        let rate: Double

        init(format: SupportedFormat, target: FrameSize, request: FormatRequest) {
            self.format = format
            self.target = target
            hasSizeList = !format.frameSizes.isEmpty
            if let exact = format.frameSizes.first(where: { $0.sizes.contains(target) }) {
                size = target
                sizeExact = true
                intervals = exact.frameIntervals
            } else if let nearest = Self.nearest(format.frameSizes, to: target) {
                size = nearest.size
                sizeExact = false
                intervals = nearest.entry.frameIntervals
            } else {
                size = target
                sizeExact = true  // unknown: the driver decides, nothing better to compare
                intervals = nil
            }
            (interval, rate) = Self.pickRate(intervals, requested: request.framesPerSecond)
        }

        func meets(_ goal: Double) -> Bool { intervals == nil || rate >= goal * 0.995 }

        /// Larger is better, compared lexicographically.
        func score(goal: Double) -> [Double] {
            let distance = abs(Double(size.area) - Double(target.area))
            return [
                sizeExact ? 1 : 0, meets(goal) ? 1 : 0, Double(FormatSelector.nativePreference[format.fourCC] ?? 0),
                -distance, rate,
            ]
        }

        /// The smallest offered size covering `target` on both axes, else the largest below it.
        static func nearest(_ entries: [SupportedFrameSize], to target: FrameSize) -> (
            size: FrameSize, entry: SupportedFrameSize
        )? {
            let offered = entries.map { ($0.sizes.nearest(to: target), $0) }
            let covering = offered.filter { $0.0.width >= target.width && $0.0.height >= target.height }
            if let smallest = covering.min(by: { $0.0 < $1.0 }) { return smallest }
            return offered.max(by: { $0.0 < $1.0 })
        }

        /// The interval for the requested rate (or the closest offered), or the fastest up to the
        /// default goal when none is requested.
        static func pickRate(_ intervals: FrameIntervalRange?, requested: Double?) -> (FrameInterval?, Double) {
            guard let intervals else {
                guard let requested, let interval = FrameInterval(framesPerSecond: requested) else { return (nil, 0) }
                return (interval, requested)
            }
            switch intervals {
            case .discrete(let list):
                guard !list.isEmpty else { return (nil, 0) }
                let wanted = requested ?? FormatSelector.defaultRateGoal
                let atMostWanted = list.filter { $0.framesPerSecond <= wanted * 1.005 }
                let pick: FrameInterval?
                if requested != nil {
                    pick = list.min { abs($0.framesPerSecond - wanted) < abs($1.framesPerSecond - wanted) }
                } else {
                    pick =
                        atMostWanted.max { $0.framesPerSecond < $1.framesPerSecond }
                        ?? list.min { $0.framesPerSecond < $1.framesPerSecond }
                }
                return (pick, pick?.framesPerSecond ?? 0)
            case .stepwise, .continuous:
                let wanted = requested ?? min(intervals.fastestRate, FormatSelector.defaultRateGoal)
                let clamped = min(max(wanted, intervals.slowestRate), intervals.fastestRate)
                return (FrameInterval(framesPerSecond: clamped), clamped)
            }
        }
    }
}
