import Testing

/// What a check report says at any speed of the host and of the emulated guest.
///
/// A guest sharing two cores with a busy suite can fall behind a camera: the driver then skips
/// frames, and the check rightly counts drops and a lower delivered rate. Whether that happens is
/// the machine's speed, which no test may depend on; what must hold whatever the pace is that the
/// figures add up (sequence numbers account for every frame received or lost) and that each
/// verdict follows from its own figures, and the result from the verdicts.
extension CheckDocument {
    /// Records an issue for each way the pace-dependent parts of the report disagree with
    /// themselves, and returns whether every check passed.
    @discardableResult
    func expectVerdictsFollowFigures(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if let first = frames.firstSequence, let last = frames.lastSequence {
            #expect(
                last - first + 1 == frames.received + frames.dropped,
                "sequence \(first) to \(last) is \(frames.received) received and \(frames.dropped) dropped",
                sourceLocation: sourceLocation)
        } else {
            Issue.record("no sequence numbers in the report", sourceLocation: sourceLocation)
        }
        if let drops = check("drops") {
            // "2 frames dropped (sequence 5 to 36), at most 0 allowed"
            let allowed = drops.detail.firstMatch(of: /at most (\d+) allowed/).flatMap { Int($0.1) }
            #expect(allowed != nil, "\(drops.detail)", sourceLocation: sourceLocation)
            #expect(
                drops.status == (frames.dropped <= (allowed ?? -1) ? "pass" : "fail"), "\(drops.detail)",
                sourceLocation: sourceLocation)
        }
        if let rate = check("frame-rate"), rate.status != "skip" {
            // "9.87 fps measured, 10 fps applied (at least 9 required)"
            let required = rate.detail.firstMatch(of: /at least ([0-9.]+) required/).flatMap { Double($0.1) }
            let measured = timing.fpsMeasured
            #expect(required != nil && measured != nil, "\(rate.detail)", sourceLocation: sourceLocation)
            if let required, let measured {
                // The report rounds to three decimals; a rate that close to the bound says nothing.
                if abs(measured - required) > 0.001 {
                    #expect(
                        rate.status == (measured >= required ? "pass" : "fail"), "\(rate.detail)",
                        sourceLocation: sourceLocation)
                }
            }
        }
        if let span = timing.spanS, span > 0, let measured = timing.fpsMeasured {
            #expect(
                abs(measured - Double(frames.received - 1) / span) < 0.01 * measured + 0.002,
                "\(measured) fps measured over \(span) s for \(frames.received) frames", sourceLocation: sourceLocation)
        }
        let passed = checks.allSatisfy { $0.status == "pass" || $0.status == "skip" }
        #expect(result == (passed ? "pass" : "fail"), sourceLocation: sourceLocation)
        #expect(exitStatus == (passed ? 0 : 1), sourceLocation: sourceLocation)
        return passed
    }
}
