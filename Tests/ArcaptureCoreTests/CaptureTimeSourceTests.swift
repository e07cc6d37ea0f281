import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore

/// Where a capture time came from, and the zone a banner shows it in (issue 39, item 1).
@Suite("Capture time sources and local time")
struct CaptureTimeSourceTests {
    @Test(
        "a stated zone gives the offset the banner shows the time in; an assumed or UTC one gives none",
        arguments: [
            (CaptureTimeSource.exifOffset("+03:00"), 10_800), (.exifOffset("-05:30"), -19_800),
            (.appleCreationDate("+0200"), 7_200), (.appleCreationDate("Z"), 0),
            (.exifZoneFromGPS(offsetSeconds: 20_700), 20_700), (.exifOffset("+3"), nil), (.exifOffset("+15:00"), nil),
            (.exifInLocalZone(zone: "EET", offsetSeconds: 7_200), nil), (.gpsClock, nil), (.containerTime, nil),
        ] as [(CaptureTimeSource, Int?)])
    func offsets(source: CaptureTimeSource, offset: Int?) {
        #expect(source.utcOffset == offset)
    }

    @Test("the note says whether the zone was stated or assumed, and which")
    func phrases() {
        #expect(CaptureTimeSource.exifInLocalZone(zone: "UTC", offsetSeconds: 0).description.contains("(UTC);"))
        #expect(
            CaptureTimeSource.exifInLocalZone(zone: "IST", offsetSeconds: 19_800).description.contains(
                "(IST, UTC+05:30)"))
        #expect(CaptureTimeSource.exifZoneFromGPS(offsetSeconds: -12_600).description.contains("UTC-03:30"))
        #expect(!CaptureTimeSource.exifInLocalZone(zone: "UTC", offsetSeconds: 0).statesZone)
        #expect(!CaptureTimeSource.containerTime.statesZone)
        #expect(CaptureTimeSource.exifOffset("+03:00").statesZone)
    }

    @Test("a time shown in a stated zone: the wall clock its camera showed, %Z and %z as the offset")
    func formatInZone() {
        let instant = UTCTime.parse("2022-08-14T11:12:31Z") ?? Date()
        #expect(
            LocalTime.format("%Y-%m-%d %H:%M:%S %Z %z", instant, utcOffset: 10_800) == "2022-08-14 14:12:31 +03 +0300")
        #expect(LocalTime.format("%H:%M %Z", instant, utcOffset: 20_700) == "16:57 +0545")
        #expect(LocalTime.format("%d %H:%M %Z", instant, utcOffset: -36_000) == "14 01:12 -10")
    }

    @Test("a wall-clock reading is placed in TZ's zone: shown in that zone it reads as it was, whatever the zone")
    func wallClockInLocalZone() async throws {
        let wallClock = try #require(UTCTime.parse("2022-08-14T14:12:31.25Z"))
        let placed = try #require(LocalTime.instant(ofWallClock: wallClock))
        #expect(LocalTime.format("%Y-%m-%d %H:%M:%S", placed.date) == "2022-08-14 14:12:31")
        #expect(placed.date.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) == 0.25)
        #expect(wallClock.timeIntervalSince(placed.date) == Double(placed.offsetSeconds))
        // date(1) in this process's zone agrees on the zone's name.
        let zone = try await ProcessRunner.run(
            tool: "date", ["-d", "@\(Int(placed.date.timeIntervalSince1970))", "+%Z"], install: "coreutils"
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(placed.zone == zone)
    }
}
