import Foundation
import Positioning
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage

/// The long tail of video telemetry through ExifTool (issue 40, item 6): the program run on real
/// files and on a clip whose subtitles carry positions the test wrote, its JSON read into fixes.
@Suite("Video GPS read through ExifTool")
struct ExifToolTrackTests {
    @Test("the GoPro clip as ExifTool reads it: each payload's first fix where arcapture's GPMF reader puts it")
    func goProAgainstGPMF() throws {
        let clip = PackagePaths.sample("video/max-heromode.mp4")
        let read = try ExifToolTrack.read(clip)
        let own = try EmbeddedTelemetry.read(clip)
        #expect(read.origin.hasPrefix("ExifTool ") && read.origin.hasSuffix("'s reading of \(clip)"))
        #expect(!read.isRelative && read.startSource == .exifToolGPSClock)
        #expect(read.track.fixes.count == 11, "one fix per GPMF payload: \(read.track.summary)")
        // Each is a sample the GPMF reader found too, to the 1e-7° ExifTool prints.
        for fix in read.track.fixes {
            #expect(
                own.track.fixes.contains {
                    abs($0.coordinate.latitude - fix.coordinate.latitude) < 1e-7
                        && abs($0.coordinate.longitude - fix.coordinate.longitude) < 1e-7
                }, "\(fix.coordinate)")
        }
        // The GPS clock tied to the video by the median over payloads, as the GPMF reader ties it
        // (ExifTool's times are each payload's GPSU, within a payload of the fixes').
        let start = try #require(read.videoStart)
        #expect(abs(start.timeIntervalSince(try #require(own.videoStart))) < 0.1)
    }

    @Test("positions in a drone's subtitles: each cue a fix at its time in the video, above sea level")
    func subtitleTrack() async throws {
        let directory = try PackagePaths.temporaryDirectory("exiftool")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = directory.appendingPathComponent("drone.mp4").path
        let positions = SubtitleGPSVideo.positions(8)
        try await SubtitleGPSVideo.make(video, positions: positions)
        // Through EmbeddedTelemetry, as annotate reads a video without GPMF or .SRT.
        let read = try EmbeddedTelemetry.read(video)
        #expect(read.isRelative && read.videoStart == nil)
        #expect(read.track.fixes.count == 8)
        for (index, (fix, position)) in zip(read.track.fixes, positions).enumerated() {
            #expect(fix.time == Date(timeIntervalSince1970: Double(index)))
            #expect(abs(fix.coordinate.latitude - position.latitude) < 1e-9)
            #expect(abs(fix.coordinate.longitude - position.longitude) < 1e-9)
            #expect(fix.altitudeMeanSeaLevel == position.altitude && fix.coordinate.altitude == nil)
        }
        #expect(read.track.summary.hasPrefix("8 fixes from its metadata (exiftool -ee); timed by their place"))
    }

    @Test("ExifTool's JSON: documents in order, speeds from their unit, a magnetic course left out, repeats dropped")
    func json() throws {
        let text = """
            [{"SourceFile":"x.mp4","Main:GPSLatitude":1,"Main:GPSLongitude":1,
              "Doc2:GPSDateTime":"2024:05:01 10:00:01Z","Doc2:GPSLatitude":45.5,"Doc2:GPSLongitude":7.25,
              "Doc2:GPSSpeed":36,"Doc2:GPSSpeedRef":"K","Doc2:GPSTrack":90,"Doc2:GPSTrackRef":"M","Doc2:SampleTime":1,
              "Doc10:GPSDateTime":"2024:05:01 10:00:02.5","Doc10:GPSLatitude":45.6,"Doc10:GPSLongitude":7.3,
              "Doc10:GPSSpeed":10,"Doc10:GPSSpeedRef":"N","Doc10:GPSTrack":180,"Doc10:SampleTime":2.5,
              "Doc1:GPSDateTime":"2024:05:01 10:00:00Z","Doc1:GPSLatitude":45.4,"Doc1:GPSLongitude":7.2,
              "Doc1:GPSAltitude":300,"Doc1:GPSSpeed":10,"Doc1:GPSSpeedRef":"M","Doc1:SampleTime":0,
              "Doc3:GPSDateTime":"2024:05:01 10:00:01Z","Doc3:GPSLatitude":45.55,"Doc3:GPSLongitude":7.27}]
            """
        let read = try ExifToolTrack.reading(Data(text.utf8), path: "x.mp4", version: "13.0")
        let fixes = read.track.fixes
        #expect(fixes.map(\.coordinate.latitude) == [45.4, 45.5, 45.6], "Main left out, Doc3's repeated time too")
        #expect(
            fixes.map { UTCTime.format($0.time) } == [
                "2024-05-01T10:00:00.000Z", "2024-05-01T10:00:01.000Z", "2024-05-01T10:00:02.500Z",
            ])
        #expect(abs((fixes[0].speed ?? 0) - 10 * 1609.344 / 3600) < 1e-9 && fixes[1].speed == 10)
        #expect(abs((fixes[2].speed ?? 0) - 10 * 1852 / 3600.0) < 1e-9)
        #expect(fixes[0].altitudeMeanSeaLevel == 300 && fixes[0].mode == .threeD && fixes[1].mode == .twoD)
        #expect(fixes[1].course == nil && fixes[2].course == 180, "a magnetic track is not a true course")
        #expect(read.videoStart.map(UTCTime.format) == "2024-05-01T10:00:00.000Z")
        #expect(read.track.summary.contains("1 at a time already read left out"))
        #expect(throws: InputFileError.self) {
            try ExifToolTrack.reading(Data("not json".utf8), path: "x.mp4", version: nil)
        }
    }
}
