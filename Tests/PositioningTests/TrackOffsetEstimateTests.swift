import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Positioning

/// Finding the offset between footage's own positions and a separate track, on the real
/// Višnjan and Cerknica tracks (samples/gpx) and on shapes whose answer is known by construction.
@Suite("Track offset estimation")
struct TrackOffsetEstimateTests {
    /// Deterministic noise in −1…1 (a linear congruential generator: the same every run).
    struct Noise {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
    }

    /// A fix at `time` (seconds since 2020-12-18T06:00:00Z); nil for a place off the globe.
    static func fix(_ time: Double, latitude: Double, longitude: Double) -> LocationFix? {
        GeodeticCoordinate(latitude: latitude, longitude: longitude).map {
            LocationFix(time: Date(timeIntervalSince1970: 1_608_271_200 + time), coordinate: $0, mode: .threeD)
        }
    }

    /// Positions along `track` every `interval` seconds from `from` to `to` (linear between its fixes,
    /// as a receiver beside it would have seen them), moved `noise` metres at random, and timed by
    /// a clock `behind` seconds behind the track's.
    static func footage(
        along track: [LocationFix], from: Date, to: Date, every interval: Double, noise: Double, behind: Double
    ) -> [LocationFix] {
        var random = Noise()
        var result: [LocationFix] = []
        var time = from
        while time <= to {
            guard let after = track.firstIndex(where: { $0.time >= time }), after > 0 else {
                time = time.addingTimeInterval(interval)
                continue
            }
            let a = track[after - 1]
            let b = track[after]
            let fraction = time.timeIntervalSince(a.time) / b.time.timeIntervalSince(a.time)
            let metres = 6_371_008.8 * Double.pi / 180
            let latitude =
                a.coordinate.latitude + (b.coordinate.latitude - a.coordinate.latitude) * fraction
                + noise * random.next() / metres
            let longitude =
                a.coordinate.longitude + (b.coordinate.longitude - a.coordinate.longitude) * fraction
                + noise * random.next() / (metres * cos(latitude * .pi / 180))
            if let coordinate = GeodeticCoordinate(latitude: latitude, longitude: longitude) {
                result.append(
                    LocationFix(time: time.addingTimeInterval(-behind), coordinate: coordinate, mode: .threeD))
            }
            time = time.addingTimeInterval(interval)
        }
        return result
    }

    @Test(
        "a camera an hour and 12.4 s behind the car's logger: the offset within 0.5 s, its spread, a time zone",
        arguments: [3612.4, -47.8, 0.6])
    func carDrive(behind: Double) throws {
        let track = try RecordedTrack.load(PackagePaths.sample("gpx/around-visnjan-with-car.gpx")).fixes
        let start = try #require(UTCTime.parse("2020-12-18T06:16:00Z"))
        // Three minutes at 10 Hz, each position up to 3 m off (two receivers in one car).
        let footage = Self.footage(
            along: track, from: start, to: start.addingTimeInterval(180), every: 0.1, noise: 3, behind: behind)
        let estimate = try TrackOffsetEstimate.matching(footage: footage, track: track)
        #expect(abs(estimate.offset - behind) < 0.5, "\(estimate)")
        #expect(estimate.isReliable, "\(estimate.problem ?? "")")
        #expect(estimate.rival == nil)
        let spread = try #require(estimate.spread)
        #expect(spread < 1 && estimate.windows >= 4, "\(estimate)")
        #expect(estimate.medianMismatch < 3)
        #expect(estimate.matchedFixes == footage.count)
        // The car stops and starts: its speed and the logger's rise and fall together.
        #expect((estimate.speedCorrelation ?? 0) > 0.8, "\(estimate)")
        #expect(estimate.likelyTimeZone == (behind > 3000 ? 3600 : nil))
    }

    @Test("laps of one circuit: the offset is ambiguous and the estimate says so, naming the rival")
    func laps() throws {
        // Three laps of a 100-m-radius circle, 60 s each, logged at 1 Hz; footage of 20 s of the
        // second lap at 5 Hz, on a clock 7 s behind.
        let centre = (latitude: 45.0, longitude: 14.0)
        let metres = 6_371_008.8 * Double.pi / 180
        let track = (0...180).compactMap { second in
            let angle = Double(second) / 60 * 2 * .pi
            return Self.fix(
                Double(second), latitude: centre.latitude + 100 * sin(angle) / metres,
                longitude: centre.longitude + 100 * cos(angle) / (metres * cos(centre.latitude * .pi / 180)))
        }
        let start = track[70].time
        let footage = Self.footage(
            along: track, from: start, to: start.addingTimeInterval(20), every: 0.2, noise: 1, behind: 7)
        let estimate = try TrackOffsetEstimate.matching(footage: footage, track: track)
        #expect(!estimate.isReliable)
        let rival = try #require(estimate.rival)
        // Whichever lap wins, the other is a lap (60 s) away.
        #expect([7.0, -53.0, 67.0].contains { abs(estimate.offset - $0) < 0.5 }, "\(estimate)")
        #expect(abs(abs(rival.offset - estimate.offset) - 60) < 1, "\(rival)")
        #expect(estimate.problem?.contains("laps") == true)
    }

    @Test("footage that stands still cannot be matched: an error that says so")
    func standingStill() throws {
        var random = Noise()
        let footage = (0..<100).compactMap { Self.fix(Double($0), latitude: 45 + random.next() * 2e-5, longitude: 14) }
        let track = (0..<100).compactMap { Self.fix(Double($0), latitude: 45 + Double($0) * 1e-4, longitude: 14) }
        #expect(throws: TrackOffsetError.self) { try TrackOffsetEstimate.matching(footage: footage, track: track) }
        do {
            _ = try TrackOffsetEstimate.matching(footage: footage, track: track)
        } catch {
            guard case .footageDoesNotMove(let extent) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(extent < 10)
            #expect(error.description.contains("standing still"))
        }
    }

    @Test("another trip (Lake Cerknica against Višnjan, its times moved to overlap) matches at no offset")
    func otherTrip() throws {
        let visnjan = try RecordedTrack.load(PackagePaths.sample("gpx/around-visnjan-with-car.gpx")).fixes
        let cerknica = try RecordedTrack.load(PackagePaths.sample("gpx/cerknicko-jezero.gpx")).fixes
        let shift = try #require(visnjan.first?.time).timeIntervalSince(try #require(cerknica.first?.time))
        let moved = cerknica.prefix(200).map { fix in
            var fix = fix
            fix.time = fix.time.addingTimeInterval(shift)
            return fix
        }
        #expect(throws: TrackOffsetError.noMatch) {
            try TrackOffsetEstimate.matching(footage: Array(moved), track: visnjan)
        }
    }

    @Test(
        "a time zone is an offset within 2 minutes of whole or half hours (or a :45 zone), half an hour or more",
        arguments: [
            (3630.0, 3600.0), (-7190, -7200), (1900, 1800), (20_700 + 40, 20_700), (4500, nil), (120, nil),
            (3600 + 200, nil), (-19_800, -19_800),
        ] as [(Double, Double?)])
    func timeZones(offset: Double, zone: Double?) {
        let estimate = TrackOffsetEstimate(
            offset: offset, spread: 0.1, windows: 8, medianMismatch: 2, speedCorrelation: nil, matchedFixes: 10,
            footageFixes: 10)
        #expect(estimate.likelyTimeZone == zone)
    }
}
