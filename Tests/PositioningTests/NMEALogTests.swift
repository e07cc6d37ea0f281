import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Positioning

/// The five real receiver logs from gpsd's regression suite (samples/nmea, BSD-2-Clause).
///
/// Expected counts were worked out independently of the decoder: a short Python script verified
/// every checksum and counted the distinct times of GGA/RMC/GLL sentences that report a valid
/// position; positions and headings are read off the sentences by hand.
@Suite("NMEA logs from real receivers")
struct NMEALogTests {
    @Test(
        "every log decodes with no damage and one fix per epoch with a position",
        arguments: [
            ("bundg_zeus_9.log", 149), ("haicom-305N.log", 68), ("quectel-eg25-g.log", 23), ("rst39.log", 41),
            ("skytraq-PX1172RH_DS.log", 9),
        ])
    func fixCounts(file: String, fixes: Int) throws {
        let track = try NMEALog.load(PackagePaths.sample("nmea/\(file)"))
        #expect(track.fixes.count == fixes)
        #expect(track.warningCount == 0, "\(track.warnings)")
        #expect(zip(track.fixes, track.fixes.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    @Test("SkyTraq RTK: position, ellipsoidal altitude (MSL + separation), THS true heading")
    func skytraq() throws {
        let track = try NMEALog.load(PackagePaths.sample("nmea/skytraq-PX1172RH_DS.log"))
        let first = try #require(track.fixes.first)
        // $GPGGA,003832.000,4404.1271062,N,12118.8438377,W,5,14,0.8,1127.630,M,-20.300,M,…
        #expect(first.time == UTCTime.parse("2022-03-29T00:38:32Z"))
        #expect(abs(first.coordinate.latitude - (44 + 4.1271062 / 60)) < 1e-12)
        #expect(abs(first.coordinate.longitude - -(121 + 18.8438377 / 60)) < 1e-12)
        #expect(abs((first.coordinate.altitude ?? 0) - (1127.630 - 20.300)) < 1e-9)
        #expect(first.altitudeMeanSeaLevel == 1127.630)
        #expect(first.mode == .threeD)
        // HDOP 0.8, no GST: 0.8 × 5 m.
        #expect(abs((first.horizontalAccuracy ?? 0) - 4.0) < 1e-9)
        #expect(track.orientations.count == 9)
        // The THS values in the file run from 244.17 to 244.67.
        #expect(track.orientations.allSatisfy { (244.17...244.67).contains($0.heading) && $0.origin == .trueHeading })
        #expect(track.orientations.first?.heading == 244.28)
        #expect(track.orientations.first?.time == first.time)
    }

    @Test("B&G Zeus boat log: course 222–248° at 4.3–6.7 kn, HDG corrected by its variation")
    func boat() throws {
        let track = try NMEALog.load(PackagePaths.sample("nmea/bundg_zeus_9.log"))
        let courses = track.fixes.compactMap(\.course)
        #expect(courses.count >= 146)
        // RMC courses run from 223.1 to 247.9 and VTG's from 222.3 to 247.9.
        #expect(courses.allSatisfy { (222.3...247.9).contains($0) })
        let knots = track.fixes.compactMap(\.speed).map { $0 * 3600 / 1852 }
        #expect(knots.allSatisfy { (4.3...6.7).contains($0) })
        // $SDHDG,229.8,,,1.3,E: magnetic 229.8 + variation 1.3 E = 231.1 true; the first HDGs come
        // before any timed sentence and cannot be used.
        let headings = track.orientations
        #expect(headings.allSatisfy { $0.origin == .compass && (228.5 + 1.3...238.5 + 1.3).contains($0.heading) })
        #expect(headings.count == 148)
    }

    /// The same log with the variation taken out of every HDG (a compass that reports none): the
    /// WMM's declination there, 52.85 N 5.31 E on 2018-08-20, is 1.495° E (WMM2015v2; pygeomag
    /// gives 1.49545°), within 0.2° of the 1.3° E the boat's own instruments wrote.
    @Test("the boat log's HDG without its variation is made true with the WMM, close to the boat's own")
    func boatWithoutVariation() throws {
        let text = try String(contentsOfFile: PackagePaths.sample("nmea/bundg_zeus_9.log"), encoding: .utf8)
        var magnetic: [Double] = []
        // Its lines end in CR LF, one Character to Swift: split on any line break.
        let stripped = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line -> String in
            guard line.hasPrefix("$SDHDG,"), let star = line.firstIndex(of: "*") else { return String(line) }
            let fields = line[line.index(after: line.startIndex)..<star].split(
                separator: ",", omittingEmptySubsequences: false)
            magnetic.append(Double(fields[1]) ?? .nan)
            return NMEATestSentences.sentence("SDHDG,\(fields[1]),,,,")
        }.joined(separator: "\n")
        let track = try NMEALog.read(Data(stripped.utf8), file: "stripped.log")
        let original = try NMEALog.load(PackagePaths.sample("nmea/bundg_zeus_9.log"))
        #expect(track.orientations.count == original.orientations.count)
        for (made, given) in zip(track.orientations, original.orientations) {
            // Theirs: magnetic + 1.3; ours: magnetic + 1.4954 at the start (the boat moves a few
            // hundred metres, which changes it by thousandths of a degree).
            #expect(abs(made.heading - given.heading - (1.4954 - 1.3)) < 0.01, "\(made.heading) \(given.heading)")
        }
        #expect(track.summary.contains("magnetic headings made true with WMM2015v2: \(track.orientations.count)"))
        #expect(magnetic.count > track.orientations.count)  // the first ones come before any position
    }

    @Test("Oxford Technical Solutions log: 10 Hz GGA, HDT and 25 Hz PASHR with roll and pitch")
    func inertial() throws {
        let track = try NMEALog.load(PackagePaths.sample("nmea/rst39.log"))
        let inertial = track.orientations.filter { $0.origin == .inertial }
        #expect(inertial.count == 100)
        // $PASHR,204132.000,010.51,T,+00.39,-00.79,…: heading 10.51, roll +0.39, pitch −0.79.
        let first = try #require(inertial.first)
        #expect(first.time == UTCTime.parse("2014-02-19T20:41:32Z"))
        #expect(first.heading == 10.51 && first.roll == 0.39 && first.pitch == -0.79)
        #expect(inertial.allSatisfy { (-0.85 ... -0.13).contains($0.pitch ?? 99) })
        let hdt = track.orientations.filter { $0.origin == .trueHeading }
        #expect(hdt.map(\.heading) == [25.50, 43.31, 61.49, 74.79])
        #expect(hdt.first?.time == UTCTime.parse("2014-02-19T20:41:33Z"))
        // GGA altitude without geoid separation: MSL only, no ellipsoidal altitude (the one RMC-only
        // epoch, 20:41:32.00, has no altitude at all).
        #expect(track.fixes.allSatisfy { $0.coordinate.altitude == nil })
        #expect(track.fixes.filter { $0.altitudeMeanSeaLevel != nil }.count == 40)
    }

    @Test("a damaged copy: bad checksums and cut lines are warnings naming the line, the rest decodes")
    func damagedCopy() throws {
        let original = try String(contentsOfFile: PackagePaths.sample("nmea/haicom-305N.log"), encoding: .utf8)
        var lines = original.components(separatedBy: "\n")
        let rmcLines = lines.indices.filter { lines[$0].hasPrefix("$GPRMC") && lines[$0].contains(",A,") }
        let flipped = rmcLines[10]
        let cut = rmcLines[20]
        lines[flipped] = lines[flipped].replacingOccurrences(of: ",A,", with: ",A,9")  // bytes change, checksum not
        lines[cut] = String(lines[cut].prefix(30))
        let directory = try PackagePaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("damaged.log").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)

        let track = try NMEALog.load(path)
        #expect(track.warningCount == 2)
        #expect(track.warnings.contains { $0.hasPrefix("\(path): line \(flipped + 1): bad checksum") })
        #expect(track.warnings.contains { $0.hasPrefix("\(path): line \(cut + 1): no checksum") })
        // The epochs keep their GGA, so every fix survives the loss of two RMCs.
        #expect(track.fixes.count == 68)
    }

    @Test("a file that is not NMEA is an error naming it")
    func notNMEA() throws {
        let directory = try PackagePaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("notes.txt").path
        try "just some notes\nabout a trip\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try RecordedTrack.load(path)
        } throws: { error in
            "\(error)".hasPrefix("\(path): not a track arcapture reads")
                && "\(error)".hasSuffix(RecordedTrack.formatsRead)
        }
        #expect(throws: InputFileError.missing(file: "/nonexistent/track.nmea")) {
            try RecordedTrack.load("/nonexistent/track.nmea")
        }
    }

    @Test("a video is refused by its first bytes, never read whole, saying where its positions are read")
    func video() throws {
        let directory = try PackagePaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // An MP4's first box, then what could be gigabytes.
        let path = directory.appendingPathComponent("ride.bin").path
        try Data([0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [UInt8](repeating: 0, count: 64)).write(
            to: URL(fileURLWithPath: path))
        #expect(
            throws: InputFileError.malformed(
                file: path, location: nil,
                problem: "a video file: its positions are in its telemetry track, which the footage reader reads")
        ) { try RecordedTrack.load(path) }
    }
}
