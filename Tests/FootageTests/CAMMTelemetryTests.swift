import Foundation
import Positioning
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage

/// A video's CAMM track (issue 40, item 5), read by arcapture and by ExifTool: the GoPro clip's
/// telemetry track rewritten as CAMM type 6 records the test chose (`CAMMTelemetryVideo`).
@Suite("A video's CAMM track")
struct CAMMTelemetryTests {
    @Test("every type 6 record a fix at its GPS time less 18 leap seconds; ExifTool reads the same, 18 s later")
    func cammTrack() async throws {
        let directory = try PackagePaths.temporaryDirectory("camm")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = try await CAMMTelemetryVideo(from: PackagePaths.sample("video/max-heromode.mp4"), in: directory)
        #expect(EmbeddedTelemetry.hasTelemetry(video.path.path))
        let read = try EmbeddedTelemetry.read(video.path.path)
        #expect(!read.isRelative && read.startSource == .cammGPSClock)
        #expect(read.origin == "\(video.path.path)'s own GPS (CAMM)")
        let written = video.packets.flatMap(\.fixes)
        #expect(read.track.fixes.count == written.count && written.count == 55)
        let utc = { (fix: CAMMTelemetryVideo.Fix) in Date(timeIntervalSince1970: 315_964_800 + fix.gpsTime - 18) }
        for (fix, expected) in zip(read.track.fixes, written) {
            #expect(abs(fix.time.timeIntervalSince(utc(expected))) < 1e-6)
            #expect(fix.coordinate.latitude == expected.latitude && fix.coordinate.longitude == expected.longitude)
            #expect(fix.coordinate.altitude == Double(expected.altitude) && fix.mode == .threeD)
            #expect(abs((fix.speed ?? 0) - Double((0.8 * 0.8 + 1.8 * 1.8 as Float).squareRoot())) < 1e-6)
            #expect(abs((fix.course ?? 0) - atan2(0.8, -1.8) * 180 / .pi) < 1e-4, "south-south-east")
            #expect(fix.horizontalAccuracy == 4)
        }
        #expect(read.track.summary.hasPrefix("55 fixes from 11 CAMM samples (type 6, times on the GPS clock, 18 leap"))
        // The video's start on the GPS clock: the first record's time, where its packet begins.
        let start = try #require(read.videoStart)
        #expect(abs(start.timeIntervalSince(utc(written[0]))) < 0.001)

        // ExifTool, reading the same track with its own CAMM reader: one document per sample,
        // holding its first record's values; its times count from the GPS epoch (as the
        // creation time tells it) without the leap seconds, so 18 s later.
        let exifTool = try await ProcessRunner.run(
            tool: "exiftool",
            ["-ee", "-n", "-j", "-G3", "-GPSDateTime", "-GPSLatitude", "-GPSLongitude", video.path.path],
            install: "apt-get install libimage-exiftool-perl")
        let tags = try #require(
            (try JSONSerialization.jsonObject(with: Data(exifTool.stdout.utf8)) as? [[String: Any]])?.first)
        var theirs: [(time: Date, latitude: Double, longitude: Double)] = []
        for number in 1...200 {
            guard let time = tags["Doc\(number):GPSDateTime"] as? String, let parsed = ExifToolTrack.time(time),
                let latitude = tags["Doc\(number):GPSLatitude"] as? Double,
                let longitude = tags["Doc\(number):GPSLongitude"] as? Double
            else { continue }
            theirs.append((parsed, latitude, longitude))
        }
        #expect(theirs.count == 11, "\(exifTool.stdout.prefix(400))")
        let firstOfEach = stride(from: 0, to: read.track.fixes.count, by: 5).map { read.track.fixes[$0] }
        for (index, (ours, their)) in zip(firstOfEach, theirs).enumerated() {
            // (ExifTool 12.57 gives the first document the time of its sample's last record, with
            // its first record's position: its own mix, not the file's.)
            if index > 0 { #expect(abs(their.time.timeIntervalSince(ours.time) - 18) < 0.001) }
            #expect(abs(their.latitude - ours.coordinate.latitude) < 1e-9)
            #expect(abs(their.longitude - ours.coordinate.longitude) < 1e-9)
        }
    }
}
