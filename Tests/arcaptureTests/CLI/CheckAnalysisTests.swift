import Testing

@testable import ArcaptureCLI

@Suite("Check figures")
struct CheckAnalysisTests {
    static func record(_ sequence: UInt32, ms: Double, dropped: UInt32 = 0, problem: String? = nil) -> FrameRecord {
        FrameRecord(
            sequence: sequence, droppedBefore: dropped, timestampNanoseconds: Int64(ms * 1_000_000), bytesUsed: 100,
            problem: problem)
    }

    @Test("rate, sensor rate, drops and jitter from hand-computed timestamps")
    func figures() throws {
        // 25 fps nominal (40 ms). Frame 3 is missing; intervals without a drop: 40, 42, 38 (after the gap: skipped).
        let records = [
            Self.record(0, ms: 1000), Self.record(1, ms: 1040), Self.record(2, ms: 1082),
            Self.record(4, ms: 1160, dropped: 1),
            Self.record(5, ms: 1198),
        ]
        let analysis = CheckAnalysis(records, nominalInterval: 0.040)
        #expect(analysis.received == 5)
        #expect(analysis.dropped == 1)
        #expect((analysis.firstSequence, analysis.lastSequence) == (0, 5))
        let span = try #require(analysis.spanSeconds)
        #expect(abs(span - 0.198) < 1e-9)
        #expect(abs(try #require(analysis.measuredFPS) - 4 / 0.198) < 1e-9)
        #expect(abs(try #require(analysis.sensorFPS) - 5 / 0.198) < 1e-9)
        #expect(analysis.monotonic)
        // Intervals 40, 42, 38 ms: mean 40, population standard deviation sqrt(8/3), largest deviation 2.
        #expect(abs(try #require(analysis.intervalMeanMilliseconds) - 40) < 1e-6)
        #expect(abs(try #require(analysis.jitterMilliseconds) - (8.0 / 3).squareRoot()) < 1e-6)
        #expect(abs(try #require(analysis.maxDeviationMilliseconds) - 2) < 1e-6)
    }

    @Test("a repeated or earlier timestamp breaks monotonicity, and invalid frames are counted")
    func problems() {
        let analysis = CheckAnalysis(
            [Self.record(0, ms: 100), Self.record(1, ms: 100, problem: "empty buffer"), Self.record(2, ms: 90)],
            nominalInterval: nil)
        #expect(!analysis.monotonic)
        #expect(analysis.invalid == 1)
        #expect(analysis.valid == 2)
    }

    @Test("one frame gives counts but no rate")
    func single() {
        let analysis = CheckAnalysis([Self.record(7, ms: 5)], nominalInterval: 0.04)
        #expect(analysis.received == 1)
        #expect(analysis.measuredFPS == nil)
        #expect(analysis.jitterMilliseconds == nil)
    }

    @Test("sequence numbers that wrap still give the sensor rate")
    func wrap() throws {
        let analysis = CheckAnalysis([Self.record(UInt32.max, ms: 0), Self.record(0, ms: 40)], nominalInterval: nil)
        #expect(abs(try #require(analysis.sensorFPS) - 25) < 1e-9)
    }
}
