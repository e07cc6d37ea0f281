import GeoAR
import Testing

@Suite("Frame selection")
struct FrameSelectorTests {
    @Test("a time-lapse takes the first frame at or after each slot, and skips missed slots")
    func timeLapse() {
        var selector = FrameSelector(warmUp: .none, interval: .milliseconds(200), count: 4, duration: nil)
        var written: [Int] = []
        // 25 fps (40 ms) with a stall from 300 ms to 700 ms.
        for milliseconds in stride(from: 0, through: 1200, by: 40) where !(300..<700).contains(milliseconds) {
            let time = Int64(milliseconds) * 1_000_000
            if selector.decide(timestampNanoseconds: time, brightness: { nil }) == .write {
                selector.recordWrite(timestampNanoseconds: time)
                written.append(milliseconds)
            }
        }
        #expect(written == [0, 200, 720, 800])
        #expect(selector.isFinished)
    }

    @Test("warm-up: a fixed skip, or until three frames agree on brightness")
    func warmUp() {
        var skip = FrameSelector(warmUp: .skip(3), interval: nil, count: 1, duration: nil)
        let skipped = (0..<5).map { skip.decide(timestampNanoseconds: Int64($0), brightness: { nil }) }
        #expect(skipped == [.warmUp, .warmUp, .warmUp, .write, .write])
        var settle = FrameSelector(warmUp: .settle(tolerance: 2, limit: 30), interval: nil, count: 1, duration: nil)
        let levels: [Double] = [10, 60, 110, 118, 119, 118, 118]
        let decisions = levels.enumerated().map { index, level in
            settle.decide(timestampNanoseconds: Int64(index), brightness: { level })
        }
        // The last three levels agree within 2 first at 118, 119, 118 (the sixth frame).
        #expect(decisions == [.warmUp, .warmUp, .warmUp, .warmUp, .warmUp, .write, .write])
        #expect(settle.warmUpSkipped == 5)
    }

    @Test("a duration ends by the frames' timestamps")
    func duration() {
        var selector = FrameSelector(warmUp: .none, interval: nil, count: nil, duration: .seconds(1))
        #expect(selector.decide(timestampNanoseconds: 5_000_000_000, brightness: { nil }) == .write)
        #expect(selector.decide(timestampNanoseconds: 5_999_000_000, brightness: { nil }) == .write)
        #expect(selector.decide(timestampNanoseconds: 6_000_000_000, brightness: { nil }) == .finished)
    }
}
