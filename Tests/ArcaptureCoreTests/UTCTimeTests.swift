import Foundation
import Testing

@testable import ArcaptureCore

@Suite("UTC timestamps")
struct UTCTimeTests {
    @Test(
        "the forms real files use parse to the same instant",
        arguments: [
            "2020-12-18T06:15:50Z", "2020-12-18T06:15:50.000Z", "2020-12-18T06:15:50", "2020-12-18 06:15:50",
            "2020-12-18T07:15:50+01:00", "2020-12-18T07:15:50+0100", "2020-12-18T01:15:50-05:00",
        ])
    func forms(text: String) {
        // 2020-12-18 is day 18614 since 1970 (50 years of 365 days + 12 leap days + 352 days).
        let expected: TimeInterval = 18614 * 86_400 + 22_550  // 06:15:50 is 22550 s into the day
        #expect(UTCTime.parse(text)?.timeIntervalSince1970 == expected)
    }

    @Test("fractions keep their digits; formatting rounds to milliseconds")
    func fractions() {
        #expect(UTCTime.parse("2010-08-05T14:23:59.25Z")?.timeIntervalSince1970 == 1_281_018_239.25)
        #expect(UTCTime.format(Date(timeIntervalSince1970: 1_281_018_239.2506)) == "2010-08-05T14:23:59.251Z")
        #expect(UTCTime.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    }

    @Test(
        "impossible or foreign text is nil",
        arguments: [
            "2021-02-29T00:00:00Z", "2020-13-01T00:00:00Z", "yesterday", "2020-12-18T06:15", "2020-12-18T06:15:50Zjunk",
        ])
    func rejects(text: String) {
        #expect(UTCTime.parse(text) == nil)
    }
}
