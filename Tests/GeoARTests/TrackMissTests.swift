import ARCompositor
import CaptureKit
import Foundation
import Testing

@testable import Footage
@testable import GeoAR
@testable import Positioning

@Suite("Footage that misses its track")
struct TrackMissTests {
    /// Fixes from 10:00:00 to 10:01:00 on 2024-05-01.
    private func track() throws -> RecordedTrack {
        let start = Date(timeIntervalSince1970: 1_714_557_600)
        let coordinate = try #require(GeodeticCoordinate(latitude: 60.17, longitude: 24.94, altitude: 20))
        return RecordedTrack(
            file: "t.gpx",
            fixes: [0.0, 60].map { LocationFix(time: start + $0, coordinate: coordinate, mode: .threeD) })
    }

    private func clock(_ secondsFromTrackStart: Double) -> FootageClock {
        FootageClock(start: Date(timeIntervalSince1970: 1_714_557_600 + secondsFromTrackStart), framesPerSecond: 10)
    }

    @Test("counted frames all before or after the track miss it; frames that reach it, within extrapolation, do not")
    func exactCount() throws {
        let limits = InterpolationLimits(maximumGap: 30, maximumExtrapolation: 1)
        let track = try track()
        // 100 frames (10 s) ending 2 s before the first fix: a miss, both ends named.
        let before = try #require(TrackMiss(clock: clock(-12), frames: 100, exact: true, track: track, limits: limits))
        #expect(before.spansEveryFrame)
        let last = before.footage.upperBound.timeIntervalSince1970
        #expect(abs(last - (1_714_557_600 - 12 + 9.9)) < 0.001, "the 100th frame's time")
        #expect(
            before.description
                == "the footage's frames (2024-05-01T09:59:48Z to 2024-05-01T09:59:57Z) all miss the track "
                + "(2024-05-01T10:00:00Z to 2024-05-01T10:01:00Z)")
        // Ending 0.5 s before it: extrapolated, not a miss.
        #expect(TrackMiss(clock: clock(-10.4), frames: 100, exact: true, track: track, limits: limits) == nil)
        #expect(TrackMiss(clock: clock(62), frames: 100, exact: true, track: track, limits: limits) != nil)
        #expect(TrackMiss(clock: clock(30), frames: 100, exact: true, track: track, limits: limits) == nil)
        #expect(TrackMiss(clock: clock(-12), frames: 0, exact: true, track: track, limits: limits) == nil, "unknown")
    }

    @Test("an estimated count only says the footage starts after the track")
    func estimatedCount() throws {
        let limits = InterpolationLimits(maximumGap: 30, maximumExtrapolation: 1)
        let track = try track()
        #expect(TrackMiss(clock: clock(-12), frames: 100, exact: false, track: track, limits: limits) == nil)
        let after = try #require(TrackMiss(clock: clock(62), frames: 100, exact: false, track: track, limits: limits))
        #expect(!after.spansEveryFrame)
        #expect(after.description.hasPrefix("the footage's first frame (2024-05-01T10:01:02Z) comes after the track"))
    }
}
