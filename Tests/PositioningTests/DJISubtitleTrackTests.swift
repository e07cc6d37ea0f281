import ArcaptureCore
import Foundation
import TestSupport
import Testing

@testable import Positioning

/// DJI subtitle files (issue 40, item 1) on the real samples in `samples/dji-srt/` (their
/// SOURCES.md lists each file's model, cue count and first fix), checked against that list and
/// against a reading written here with regular expressions from the layouts it describes, never
/// against arcapture's own output.
@Suite("DJI subtitle files")
struct DJISubtitleTrackTests {
    static func path(_ name: String) -> String { PackagePaths.sample("dji-srt/\(name)") }

    static func read(_ name: String) throws -> DJISubtitleTrack {
        try DJISubtitleTrack(data: InputFile.read(path(name)), file: name)
    }

    /// The independent reading: each cue's timing start and the position its layout writes, by
    /// regular expression over the whole file (the bracketed `latitude`/`longitude` or
    /// `longtitude`, else `GPS(…)`: longitude first, latitude first when the third value has an
    /// `M`).
    static func reference(_ name: String) throws -> [(time: Double, latitude: Double, longitude: Double)] {
        let text = try String(contentsOfFile: path(name), encoding: .utf8)
        let cue = try NSRegularExpression(
            pattern: #"(\d\d):(\d\d):(\d\d),(\d\d\d) -->((?:(?!\d\d:\d\d:\d\d,\d\d\d -->)[\s\S])*)"#)
        let bracketed = try NSRegularExpression(
            pattern: #"\[latitude ?: ?([-\d.]+)\] \[longt?itude ?: ?([-\d.]+)\]"#)
        let legacy = try NSRegularExpression(pattern: #"GPS ?\(([-\d.]+), ?([-\d.]+), ?([\d.]+)(M?)\)"#)
        var result: [(Double, Double, Double)] = []
        let whole = text as NSString
        for match in cue.matches(in: text, range: NSRange(location: 0, length: whole.length)) {
            func number(_ m: NSTextCheckingResult, _ i: Int, _ source: NSString) -> Double {
                Double(source.substring(with: m.range(at: i))) ?? .nan
            }
            let time =
                number(match, 1, whole) * 3600 + number(match, 2, whole) * 60 + number(match, 3, whole)
                + number(match, 4, whole) / 1000
            let body = whole.substring(with: match.range(at: 5)) as NSString
            let range = NSRange(location: 0, length: body.length)
            if let m = bracketed.firstMatch(in: body as String, range: range) {
                result.append((time, number(m, 1, body), number(m, 2, body)))
            } else if let m = legacy.firstMatch(in: body as String, range: range) {
                let (a, b) = (number(m, 1, body), number(m, 2, body))
                result.append(body.substring(with: m.range(at: 4)) == "M" ? (time, a, b) : (time, b, a))
            }
        }
        return result
    }

    @Test(
        "every dialect: the cue count and first fix SOURCES.md lists",
        arguments: [
            ("JuanIrache/air2s.srt", 17, 41.424724, 2.234156),
            ("JuanIrache/mavic_air2.srt", 25, 41.420684, 2.162162),
            ("JuanIrache/mavic_mini.SRT", 117, 48.0771, -121.7458),
            ("JuanIrache/mavic_pro.SRT", 468, -20.2533, 149.0251),
            ("JuanIrache/mavic_pro_buggy.SRT", 546, 42.4668, -1.2218),
            ("JuanIrache/old_format.SRT", 468, -20.2533, 149.0251),
            ("JuanIrache/matrice_300.srt", 381, 36.6146, -6.1120),
            ("JuanIrache/p4_rtk.SRT", 55, -34.237922, -58.851745),
            ("JuanIrache/p4p_sample.SRT", 5, 47.4692, 8.2090),
            ("JuanIrache/mix_p4rtk_mavic2pro.srt", 12, -34.650200, -59.409424),
            ("JuanIrache/mavic_2_style.SRT", 468, -20.2533, 149.0251),
            ("ruz76/DJI.SRT", 7, 49.379442, 15.032166),
            ("ruz76/DJI_M300RTK.SRT", 7, 49.125749, 14.634775),
            ("ruz76/DJI_MAVIC_3T.SRT", 12, 50.106373, 14.495168),
            ("ruz76/DJI_MAVIC_2_ZOOM.SRT", 10, 49.128078, 14.635573),
            ("ruz76/DJI_MAVIC_ENTERPRISE.SRT", 10, 49.129338, 14.637413),
            ("ruz76/DJI_MAVIC_ENTERPRISE_ADVANCED.SRT", 10, 49.128048, 14.635630),
        ])
    func dialects(name: String, cues: Int, latitude: Double, longitude: Double) throws {
        let (parsed, _) = DJISubtitleParser.cues(try InputFile.read(Self.path(name)))
        #expect(parsed.count == cues)
        let first = try #require(parsed.first { $0.hasPosition })
        #expect(first.latitude == latitude && first.longitude == longitude, "\(first)")
        let track = try Self.read(name)
        #expect(track.cueCount == cues)
        #expect(!track.track.fixes.isEmpty)
        #expect(track.track.summary.contains("from \(cues) cues (DJI subtitles"), "\(track.track.summary)")
    }

    @Test(
        "each fix where the file puts it, at its cue's time in the video",
        arguments: [
            "JuanIrache/air2s.srt", "JuanIrache/mavic_air2.srt", "JuanIrache/p4_rtk.SRT",
            "JuanIrache/mix_p4rtk_mavic2pro.srt", "ruz76/DJI.SRT", "ruz76/DJI_M300RTK.SRT",
            "ruz76/DJI_MAVIC_3T.SRT", "ruz76/DJI_MAVIC_2_ZOOM.SRT", "ruz76/DJI_MAVIC_ENTERPRISE_ADVANCED.SRT",
        ])
    func fixesMatchReference(name: String) throws {
        let reference = try Self.reference(name)
        let track = try Self.read(name)
        let fixes = track.track.fixes
        #expect(fixes.count == reference.count && !reference.isEmpty)
        let origin = track.videoStart?.date ?? Date(timeIntervalSince1970: 0)
        for (fix, expected) in zip(fixes, reference) {
            #expect(fix.coordinate.latitude == expected.latitude && fix.coordinate.longitude == expected.longitude)
            #expect(abs(fix.time.timeIntervalSince(origin) - expected.time) < 1e-6)
        }
    }

    @Test("positions written to 4 decimals are averaged along the track; 6 decimals are kept as written")
    func coarsePositionsSmoothed() throws {
        let reference = try Self.reference("JuanIrache/mavic_pro.SRT")
        let track = try Self.read("JuanIrache/mavic_pro.SRT")
        #expect(track.track.summary.contains("positions to 4 decimals (~11 m), averaged over ±2.5 s"))
        #expect(track.track.fixes.count == reference.count)
        func largestStep(_ points: [(Double, Double)]) -> Double {
            zip(points, points.dropFirst()).map { max(abs($0.0 - $1.0), abs($0.1 - $1.1)) }.max() ?? 0
        }
        let raw = largestStep(reference.map { ($0.latitude, $0.longitude) })
        let smoothed = largestStep(track.track.fixes.map { ($0.coordinate.latitude, $0.coordinate.longitude) })
        #expect(smoothed < raw, "the 0.0001° steps are spread out: \(smoothed) against \(raw)")
        for (fix, expected) in zip(track.track.fixes, reference) {
            #expect(abs(fix.coordinate.latitude - expected.latitude) < 0.001)
        }
    }

    @Test("the video's start is the drone's clock minus the cue's time, read as local time and said so")
    func videoStart() throws {
        let track = try Self.read("JuanIrache/mavic_pro.SRT")
        let start = try #require(track.videoStart)
        guard case .subtitleClockInLocalZone(_, let offset) = start.source else {
            Issue.record("\(start.source)")
            return
        }
        // The first cue: 00:00:01,000, and the drone's clock 2017.08.05 14:11:51, local time.
        let wallClock = try #require(UTCTime.parse("2017-08-05T14:11:51Z"))
        #expect(start.date.addingTimeInterval(Double(offset)) == wallClock.addingTimeInterval(-1))
        #expect(start.source.description.contains("read as local time in this system's time zone"))
        #expect(!start.source.statesZone)
        // Milliseconds and microseconds: 2022-08-07 13:40:40,774,808 at 00:00:00,000.
        let air = try #require(try Self.read("JuanIrache/air2s.srt").videoStart)
        guard case .subtitleClockInLocalZone(_, let airOffset) = air.source else { return }
        let airClock = try #require(UTCTime.parse("2022-08-07T13:40:40.774808Z"))
        #expect(abs(air.date.addingTimeInterval(Double(airOffset)).timeIntervalSince(airClock)) < 1e-6)
        // No dates (Mavic Mini, Phantom 4): times only from the video's start.
        #expect(try Self.read("JuanIrache/mavic_mini.SRT").isRelative)
    }

    @Test("orientation: the gimbal's yaw, pitch and roll; else the airframe's yaw; else none")
    func orientations() throws {
        let mavic3T = try Self.read("ruz76/DJI_MAVIC_3T.SRT").track
        let gimbal = try #require(mavic3T.orientations.first)
        #expect(gimbal.origin == .gimbal)
        #expect(abs(gimbal.heading - 252.7) < 1e-9 && gimbal.pitch == -10.7 && gimbal.roll == 0)
        // Phantom 4 RTK: G.PRY is pitch, roll, yaw.
        let p4 = try #require(try Self.read("JuanIrache/p4_rtk.SRT").track.orientations.first)
        #expect(p4.origin == .gimbal && p4.heading == 110.4 && p4.pitch == -24.4)
        // Both the drone's and the gimbal's: the gimbal's only.
        #expect(try Self.read("ruz76/DJI.SRT").track.orientations.allSatisfy { $0.origin == .gimbal })
        let airframe = try #require(try Self.read("ruz76/DJI_MAVIC_ENTERPRISE_ADVANCED.SRT").track.orientations.first)
        #expect(airframe.origin == .flightController && airframe.heading == 17.9 && airframe.pitch == nil)
        #expect(try Self.read("JuanIrache/air2s.srt").track.orientations.isEmpty)
    }

    @Test("heights: the drone's above sea level when written; above take-off only is a warning")
    func heights() throws {
        let absolute = try Self.read("ruz76/DJI.SRT").track
        #expect(absolute.fixes.first?.altitudeMeanSeaLevel == 758.949)
        #expect(absolute.heightWarning == nil)
        let relative = try Self.read("JuanIrache/p4_rtk.SRT").track
        #expect(relative.fixes.first?.altitudeMeanSeaLevel == 85.80)
        #expect(relative.heightWarning?.contains("gives only the height above take-off") == true)
        // Mavic Pro: GPS(lon,lat,satellites): the 16 is not a height; BAROMETER:1.9 is.
        #expect(try Self.read("JuanIrache/mavic_pro.SRT").track.fixes.first?.altitudeMeanSeaLevel == 1.9)
    }

    @Test("broken files: empty ones refused naming the problem; a cut-off cue skipped, named, and counted")
    func broken() throws {
        #expect {
            try Self.read("JuanIrache/broken_empty.SRT")
        } throws: { error in
            "\(error)"
                == "JuanIrache/broken_empty.SRT: empty: a DJI subtitle file has numbered cues, each with a timing line"
        }
        #expect {
            try Self.read("JuanIrache/broken_empty2.SRT")
        } throws: { error in
            "\(error)".hasPrefix("JuanIrache/broken_empty2.SRT: cue 1 (line 1): cut off after its number")
        }
        #expect {
            try Self.read("JuanIrache/mavic_air.SRT")
        } throws: { error in
            "\(error)".contains("none of its 2 cues gives a position")
        }
        let incomplete = try Self.read("JuanIrache/broken_incomplete.SRT").track
        #expect(incomplete.fixes.count == 19)
        #expect(incomplete.warnings.first?.hasPrefix("JuanIrache/broken_incomplete.SRT: cue 20 (line 115): ") == true)
        #expect(incomplete.summary.hasSuffix("damaged: 1"))
        let cut = try Self.read("JuanIrache/broken_incomplete2.SRT").track
        #expect(cut.fixes.count == 4)
        #expect(
            cut.warnings == [
                "JuanIrache/broken_incomplete2.SRT: cue 3 (line 13): cut short: a bracket is left open "
                    + "(\"…[focal_len : 280] [latit\"); skipped",
                "JuanIrache/broken_incomplete2.SRT: cue 6 (line 31): cut short: a bracket is left open "
                    + "(\"…titude : -34.869941] [lo\") (the file ends inside it); skipped",
            ])
    }

    @Test("as a track of its own: read by content with its clock; without one, refused naming what to do")
    func asTrack() throws {
        let track = try RecordedTrack.load(Self.path("JuanIrache/matrice_300.srt"))
        #expect(track.fixes.count == 381)
        #expect {
            try RecordedTrack.load(Self.path("JuanIrache/mavic_mini.SRT"))
        } throws: { error in
            "\(error)".contains("its cues carry no date and time") && "\(error)".contains("annotate that video instead")
        }
        #expect(DJISubtitleTrack.isSubtitleFile(head: try InputFile.read(Self.path("JuanIrache/matrice_300.srt"))))
        #expect(!DJISubtitleTrack.isSubtitleFile(head: Data("$GPGGA,1\n".utf8)))
    }
}
