import Foundation
import Testing

@testable import ArcaptureCore
@testable import Positioning

/// The decoder's rules on hand-made sentences: epochs, dates, midnight, order, damage, talkers.
@Suite("NMEA decoder")
struct NMEADecoderTests {
    private func decode(_ bodies: [String]) -> (events: [LocationEvent], decoder: NMEADecoder) {
        var decoder = NMEADecoder()
        var events: [LocationEvent] = []
        for (index, body) in bodies.enumerated() {
            let line = body.hasPrefix("$") || body.hasPrefix("#") ? body : NMEATestSentences.sentence(body)
            events += decoder.decode(line: line[...], lineNumber: index + 1)
        }
        events += decoder.flush()
        return (events, decoder)
    }

    private func fixes(_ events: [LocationEvent]) -> [LocationFix] {
        events.compactMap { if case .fix(let fix) = $0 { fix } else { nil } }
    }

    @Test("GGA, RMC, GSA and GST of one time merge into one fix")
    func mergesOneEpoch() throws {
        let (events, _) = decode([
            "GNGGA,120000.00,6010.1280,N,02457.1200,E,1,10,0.9,25.0,M,17.5,M,,",
            "GNRMC,120000.00,A,6010.1280,N,02457.1200,E,10.0,90.5,291126,,,A",
            "GNGSA,A,3,01,02,03,04,,,,,,,,,1.5,0.9,1.2",
            "GNGST,120000.00,1.0,0.5,0.4,30.0,0.3,0.4,0.8",
        ])
        let fix = try #require(fixes(events).first)
        #expect(fixes(events).count == 1)
        #expect(fix.time == UTCTime.parse("2026-11-29T12:00:00Z"))
        #expect(abs(fix.coordinate.latitude - (60 + 10.128 / 60)) < 1e-12)
        #expect(fix.coordinate.altitude == 42.5)
        #expect(fix.mode == .threeD)
        #expect(abs((fix.speed ?? 0) - 10 * 1852 / 3600) < 1e-12)
        #expect(fix.course == 90.5)
        // GST: σlat 0.3, σlon 0.4 → 0.5 m radial; σalt 0.8.
        #expect(abs((fix.horizontalAccuracy ?? 0) - 0.5) < 1e-12)
        #expect(fix.verticalAccuracy == 0.8)
        #expect(events.contains(.status(.fix(.threeD))))
    }

    @Test(
        "talkers GP, GN, GL, GA, GB and GQ are equivalent for position",
        arguments: ["GP", "GN", "GL", "GA", "GB", "GQ"])
    func talkers(talker: String) {
        let (events, _) = decode(["\(talker)RMC,235959.00,A,4530.0000,N,01400.0000,E,0.0,0.0,010126,,,A"])
        #expect(fixes(events).first?.coordinate.latitude == 45.5)
    }

    @Test("fixes before the first date wait for it; the clock crosses midnight once")
    func datesAndMidnight() {
        let (events, decoder) = decode([
            "GPGGA,235958.00,4530.0000,N,01400.0000,E,1,08,1.0,100.0,M,45.0,M,,",
            "GPGGA,235959.00,4530.0000,N,01400.0000,E,1,08,1.0,100.0,M,45.0,M,,",
            "GPRMC,235959.00,A,4530.0000,N,01400.0000,E,0.0,0.0,311226,,,A",
            "GPGGA,000000.00,4530.0000,N,01400.0000,E,1,08,1.0,100.0,M,45.0,M,,",
            "GPGGA,000001.00,4530.0000,N,01400.0000,E,1,08,1.0,100.0,M,45.0,M,,",
        ])
        let times = fixes(events).map { UTCTime.format($0.time) }
        #expect(
            times == [
                "2026-12-31T23:59:58.000Z", "2026-12-31T23:59:59.000Z", "2027-01-01T00:00:00.000Z",
                "2027-01-01T00:00:01.000Z",
            ])
        #expect(decoder.statistics.fixes == 4)
    }

    @Test("a time that goes back is skipped with a warning naming the line")
    func timeGoesBack() {
        let (events, decoder) = decode([
            "GPRMC,100002.00,A,4530.0000,N,01400.0000,E,0.0,0.0,010126,,,A",
            "GPRMC,100001.00,A,4530.0000,N,01400.0000,E,0.0,0.0,010126,,,A",
            "GPRMC,100003.00,A,4530.0000,N,01400.0000,E,0.0,0.0,010126,,,A",
        ])
        #expect(fixes(events).count == 2)
        #expect(decoder.statistics.nonMonotonic == 1)
        #expect(
            events.contains(
                .warning(
                    "line 2: time went back from 2026-01-01T10:00:02.000Z to 2026-01-01T10:00:01.000Z; epoch skipped")))
    }

    @Test("damage is counted and never fatal: bad checksum, cut line, bad field, unknown type")
    func damage() {
        let good = NMEATestSentences.sentence("GPRMC,100002.00,A,4530.0000,N,01400.0000,E,0.0,0.0,010126,,,A")
        let flipped = good.replacingOccurrences(of: "4530", with: "4531")
        let (events, decoder) = decode([
            "# a comment line",
            flipped,
            String(good.prefix(25)),
            "GPGGA,100001.00,45x0.0000,N,01400.0000,E,1,08,1.0,100.0,M,45.0,M,,",
            "WIMWV,214.8,R,0.1,K,A",
            good,
        ])
        #expect(decoder.statistics.badChecksums == 1)
        #expect(decoder.statistics.truncated == 1)
        #expect(decoder.statistics.malformed == 1)
        #expect(decoder.statistics.skipped == ["MWV": 1])
        #expect(decoder.statistics.otherLines == 1)
        #expect(events.contains(.warning("line 4: GPGGA: bad position")))
        #expect(fixes(events).count == 1)
    }

    @Test("whole-number fields beyond Int are damage, not a trap (found by fuzzing)")
    func hugeWholeNumbers() {
        let (events, decoder) = decode([
            "GPGGA,100001.00,4530.0000,N,01400.0000,E,1e300,08,1.0,100.0,M,45.0,M,,",
            "GPZDA,100001.00,01,01,1e300,00,00",
            "GPGGA,100002.00,4530.0000,N,01400.0000,E,1.0,08,1.0,100.0,M,45.0,M,,",
            "GPGSA,A,9e99,01,02,03,04,,,,,,,,,1.8,1.0,1.5",
            "GPRMC,100002.00,A,4530.0000,N,01400.0000,E,0.0,0.0,010126,,,A",
        ])
        #expect(decoder.statistics.malformed == 2)
        #expect(events.contains(.warning("line 1: GPGGA: no fix quality")))
        #expect(events.contains(.warning("line 2: GPZDA: bad date")))
        // "1.0" is a whole number some receivers write so; the fix of 10:00:02 is whole.
        #expect(fixes(events).count == 1)
    }

    @Test("no fix, then a fix, then lost: status changes once each")
    func statusChanges() {
        let (events, _) = decode([
            "GPGGA,,,,,,0,,,,,,,,",
            "GPRMC,,V,,,,,,,,,,N",
            "GPRMC,100002.00,A,4530.0000,N,01400.0000,E,0.0,0.0,010126,,,A",
            "GPRMC,100003.00,V,,,,,,,010126,,,N",
        ])
        let statuses = events.compactMap { if case .status(let status) = $0 { status } else { nil } }
        #expect(statuses == [.noFix, .fix(.twoD), .lost])
    }

    @Test("true heading wraps: HDT of 359.9 and THS marked invalid")
    func headings() {
        let (events, decoder) = decode([
            "GPRMC,100002.00,A,4530.0000,N,01400.0000,E,0.0,0.0,010126,,,A",
            "GPHDT,359.9,T",
            "GPRMC,100003.00,A,4530.0000,N,01400.0000,E,0.0,0.0,010126,,,A",
            "GNTHS,12.0,V",
            "HEHDG,100.0,,,2.5,W",
        ])
        let headings = events.compactMap { if case .orientation(let sample) = $0 { sample } else { nil } }
        #expect(headings.map(\.heading) == [359.9, 97.5])
        #expect(headings.map(\.origin) == [.trueHeading, .compass])
        #expect(decoder.statistics.skipped["THS"] == 1)
    }
    @Test("a magnetic heading (HDM, HDG without its variation) is made true with the WMM where the receiver is")
    func magneticHeadings() {
        // 60.14667 N, 24.90667 E on 2022-08-14 at 10:00:02Z: WMM2020's declination there is
        // 9.87186° (pygeomag 1.1.0, an independent implementation).
        let (events, decoder) = decode([
            "HEHDM,56.0,M",  // before any position: unusable
            "GPRMC,100002.00,A,6008.8000,N,02454.4000,E,0.0,0.0,140822,,,A",
            "HEHDM,56.0,M",
            "GPRMC,100003.00,A,6008.8000,N,02454.4000,E,0.0,0.0,140822,,,A",
            "HEHDG,100.0,1.0,E,,",
            "GPRMC,100004.00,A,6008.8000,N,02454.4000,E,0.0,0.0,140822,,,A",
        ])
        let headings = events.compactMap { if case .orientation(let sample) = $0 { sample } else { nil } }
        #expect(headings.count == 2)
        #expect(headings.map(\.origin) == [.compass, .compass])
        if headings.count == 2 {
            #expect(abs(headings[0].heading - (56 + 9.87186)) < 0.0001, "\(headings[0].heading)")
            #expect(abs(headings[1].heading - (101 + 9.87186)) < 0.0001, "\(headings[1].heading)")
        }
        #expect(decoder.statistics.magneticHeadings == 2)
        #expect(decoder.statistics.declinationModel == "WMM2020")
        #expect(decoder.statistics.unusableHeadings == 1)
        #expect(NMEALog.summary(decoder.statistics).contains("magnetic headings made true with WMM2020: 2"))
    }

    @Test("a magnetic heading no model covers is not used, and said once")
    func magneticHeadingWithoutModel() {
        let (events, decoder) = decode([
            "GPRMC,100002.00,A,6008.8000,N,02454.4000,E,0.0,0.0,140808,,,A",
            "HEHDM,56.0,M",
            "GPRMC,100003.00,A,6008.8000,N,02454.4000,E,0.0,0.0,140808,,,A",
            "HEHDM,57.0,M",
            "GPRMC,100004.00,A,6008.8000,N,02454.4000,E,0.0,0.0,140808,,,A",
        ])
        #expect(!events.contains { if case .orientation = $0 { true } else { false } })
        let warnings = events.compactMap { if case .warning(let text) = $0 { text } else { nil } }
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.contains("a magnetic heading is not used: no World Magnetic Model covers 2008-08-14")
                == true)
        #expect(decoder.statistics.unusableHeadings == 2)
    }
}
