import Foundation
import Positioning
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage

/// A video's DJI metadata track (issue 40, item 2), and an XTRA camera's of the same kind: clips
/// written from the schemas by Google's protobuf for Python (`DJIMetadataVideo`; no real clip with
/// the track is available under a licence the project may use), read by arcapture through
/// libprotobuf-c.
@Suite("A video's DJI metadata track (djmd)")
struct DJIMetadataTelemetryTests {
    static let clip = PackagePaths.sample("video/max-heromode.mp4")

    /// Packet `index`'s position: north-east from Lund's cathedral, 1e-5° a packet.
    static func position(_ index: Int) -> (latitude: Double, longitude: Double) {
        (55.704_2 + Double(index) * 0.000_01, 13.193 + Double(index) * 0.000_01)
    }

    @Test("Osmo Action: a fix a message at its packet's time, the GPS stamps giving the start; invalid fixes left out")
    func osmoAction() async throws {
        let directory = try PackagePaths.temporaryDirectory("djmd-osmo")
        defer { try? FileManager.default.removeItem(at: directory) }
        let times = try await DJIMetadataVideo.packetTimes(of: Self.clip)
        // The true start: 10:00:00.25 on 2024-05-01; each stamp is its second, cut to whole seconds.
        let start = 1_714_557_600.25
        let frames: [DJIMetadataVideo.Frame] = times.enumerated().map { index, time in
            var frame: DJIMetadataVideo.Frame = [
                "lat": Self.position(index).latitude, "lon": Self.position(index).longitude, "alt_mm": 61_500 + index,
                "alt_type": 1,
                "time": UTCTime.format(Date(timeIntervalSince1970: (start + time).rounded(.down)))
                    .prefix(19).replacingOccurrences(of: "T", with: " "),
            ]
            if index == 0 { frame["clip"] = ["proto_file_name": "dvtm_ac203.proto", "product_name": "Osmo Action 4"] }
            if index == 3 { frame["status"] = 1 }  // the receiver says the fix is invalid
            if index == 5 {
                frame["lat"] = 0.0
                frame["lon"] = 0.0
            }  // no fix yet, written as 0, 0
            return frame
        }
        let video = try await DJIMetadataVideo(
            from: Self.clip, product: "ac203", frames: frames, name: "osmo.mp4", in: directory)
        #expect(EmbeddedTelemetry.hasTelemetry(video.path.path))
        let read = try EmbeddedTelemetry.read(video.path.path)
        #expect(!read.isRelative && read.startSource == .djiGPSTime)
        #expect(read.origin == "\(video.path.path)'s own GPS (DJI metadata)")
        let kept = times.indices.filter { $0 != 3 && $0 != 5 }
        #expect(read.track.fixes.count == kept.count)
        // The start: not after the true one, and within the stamps' second of it.
        let videoStart = try #require(read.videoStart).timeIntervalSince1970
        #expect(videoStart <= start + 1e-6 && videoStart > start - 1, "\(videoStart - start)")
        for (fix, index) in zip(read.track.fixes, kept) {
            #expect(fix.coordinate.latitude == Self.position(index).latitude)
            #expect(fix.coordinate.longitude == Self.position(index).longitude)
            #expect(fix.coordinate.altitude == Double(61_500 + index) / 1000, "GPS fused: on the ellipsoid")
            #expect(abs(fix.time.timeIntervalSince1970 - (videoStart + times[index])) < 1e-6)
        }
        #expect(
            read.track.summary
                == "\(kept.count) fixes from \(times.count) DJI metadata samples (Osmo Action 4, schema Osmo Action "
                + "4/5 (dvtm_ac203, ac204); GPS time stamps read as UTC); 2 frames without a valid fix left out")
        #expect(read.track.orientations.isEmpty, "an Osmo Action records no heading: the course gives it")
    }

    @Test("Avata 2: radians, the drone's yaw as the heading, its velocity, a barometer's altitude said so")
    func avata2() async throws {
        let directory = try PackagePaths.temporaryDirectory("djmd-avata")
        defer { try? FileManager.default.removeItem(at: directory) }
        let times = try await DJIMetadataVideo.packetTimes(of: Self.clip)
        let frames: [DJIMetadataVideo.Frame] = times.indices.map { index in
            var frame: DJIMetadataVideo.Frame = [
                "unit": 0, "lat": Self.position(index / 2).latitude * .pi / 180,
                "lon": Self.position(index / 2).longitude * .pi / 180, "alt_mm": 80_000, "alt_type": 0,
                "yaw": 450 + index, "pitch": -100, "roll": 5, "north": 3.0, "east": 4.0,
            ]
            if index == 0 { frame["clip"] = ["proto_file_name": "dvtm_wa530.proto", "product_name": "DJI Avata 2"] }
            return frame
        }
        let video = try await DJIMetadataVideo(
            from: Self.clip, product: "wa530", frames: frames, name: "avata.mp4", in: directory)
        let read = try EmbeddedTelemetry.read(video.path.path)
        // No GPS time: timed by the video alone, anchored later by the container's time or --start.
        #expect(read.isRelative && read.videoStart == nil)
        // The GPS repeats each position for two frames: the second adds nothing.
        #expect(read.track.fixes.count == (times.count + 1) / 2)
        for (number, fix) in read.track.fixes.enumerated() {
            #expect(abs(fix.coordinate.latitude - Self.position(number).latitude) < 1e-9)
            #expect(abs(fix.coordinate.longitude - Self.position(number).longitude) < 1e-9)
            #expect(fix.coordinate.altitude == nil && fix.altitudeMeanSeaLevel == 80)
            #expect(abs(fix.time.timeIntervalSince1970 - times[number * 2]) < 1e-6)
            #expect(abs((fix.speed ?? 0) - 5) < 1e-6)
            #expect(abs((fix.course ?? 0) - atan2(4.0, 3.0) * 180 / .pi) < 1e-4)
        }
        // Every frame's yaw, a heading from the flight controller: 45.0°, 45.1°…
        #expect(read.track.orientations.count == times.count)
        #expect(read.track.orientations.map(\.heading).prefix(3).map { ($0 * 10).rounded() } == [450, 451, 452])
        #expect(read.track.orientations.allSatisfy { $0.origin == .flightController })
        #expect(read.track.summary.contains("heading from the drone's yaw"), "\(read.track.summary)")
        #expect(
            read.track.summary.contains(
                "\(read.track.fixes.count) altitudes from the barometer, read as above sea level"))
    }

    @Test(
        "XTRA Edge and Edge Pro: an xtmd track's GPS remote fixes and velocity, the GPS stamps giving the start",
        arguments: [("ae2503", "XTRA Edge"), ("ae2504", "XTRA Edge Pro")])
    func xtra(product: String, name: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("xtmd-\(product)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let times = try await DJIMetadataVideo.packetTimes(of: Self.clip)
        let start = 1_714_557_600.5
        // Written from XTRA's own schemas and library (proto/xtra/), with the camera's ISO and the
        // IMU's attitude in every frame: arcapture reads them with its GPS path alone.
        let frames: [DJIMetadataVideo.Frame] = times.enumerated().map { index, time in
            var frame: DJIMetadataVideo.Frame = [
                "lat": Self.position(index).latitude, "lon": Self.position(index).longitude, "alt_mm": 12_250,
                "alt_type": 1, "north": -2.0, "east": 0.0,
                "time": UTCTime.format(Date(timeIntervalSince1970: (start + time).rounded(.down)))
                    .prefix(19).replacingOccurrences(of: "T", with: " "),
            ]
            if index == 0 { frame["clip"] = ["proto_file_name": "dvtm_\(product).proto", "product_name": name] }
            return frame
        }
        let video = try await DJIMetadataVideo(
            from: Self.clip, product: product, frames: frames, name: "\(product).mp4", in: directory)
        #expect(EmbeddedTelemetry.hasTelemetry(video.path.path))
        let read = try EmbeddedTelemetry.read(video.path.path)
        #expect(read.origin == "\(video.path.path)'s own GPS (XTRA metadata)")
        #expect(!read.isRelative && read.startSource == .djiGPSTime)
        let videoStart = try #require(read.videoStart).timeIntervalSince1970
        #expect(videoStart <= start + 1e-6 && videoStart > start - 1, "\(videoStart - start)")
        #expect(read.track.fixes.count == times.count)
        for (index, fix) in read.track.fixes.enumerated() {
            #expect(fix.coordinate.latitude == Self.position(index).latitude)
            #expect(fix.coordinate.longitude == Self.position(index).longitude)
            #expect(fix.coordinate.altitude == 12.25)
            #expect(abs(fix.time.timeIntervalSince1970 - (videoStart + times[index])) < 1e-6)
            // 2 m/s south: the remote's velocity gives the speed and the course.
            #expect(fix.speed == 2 && fix.course == 180)
        }
        #expect(read.track.orientations.isEmpty, "the remote records no heading: the course gives it")
        #expect(
            read.track.summary
                == "\(times.count) fixes from \(times.count) XTRA metadata samples (\(name), schema XTRA Edge / Edge Pro "
                + "(dvtm_ae2503, ae2504); GPS time stamps read as UTC)")
    }

    @Test("a product whose layout is not read, frames without GPS, or damaged messages: refused, saying what was found")
    func refused() async throws {
        let directory = try PackagePaths.temporaryDirectory("djmd-refused")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A product no published schema describes (the Mini 4 Pro's; its file name made up here),
        // and the Avata's, whose schema has no GPS at all.
        for (product, file, name, expected) in [
            (
                "DJI Mini 4 Pro", "dvtm_mini4pro.proto", "mini4pro.mp4",
                "its DJI metadata track (djmd) is DJI Mini 4 Pro's (dvtm_mini4pro.proto), a layout arcapture does not "
                    + "read: it reads Osmo Action 4/5 (dvtm_ac203, ac204), Avata 2 (dvtm_wa530), Osmo 360 (dvtm_oq101), "
                    + "XTRA Edge / Edge Pro (dvtm_ae2503, ae2504)"
            ),
            (
                "DJI Avata", "dvtm_wm169.proto", "avata1.mp4",
                "its DJI metadata track (djmd) is DJI Avata's (dvtm_wm169.proto), whose layout holds no GPS"
            ),
        ] {
            let other = try await DJIMetadataVideo(
                from: Self.clip, product: "ac203",
                frames: [["clip": ["proto_file_name": file, "product_name": product]]],
                name: name, in: directory)
            #expect(EmbeddedTelemetry.hasTelemetry(other.path.path))
            // No GPS, not damage (the video needs a track given).
            #expect {
                try EmbeddedTelemetry.read(other.path.path)
            } throws: { error in
                guard let error = error as? InputFileError, let reason = EmbeddedTelemetry.noGPSReason(error) else {
                    return false
                }
                return reason.contains(expected)
            }
        }
        let indoors = try await DJIMetadataVideo(
            from: Self.clip, product: "oq101",
            frames: [["clip": ["proto_file_name": "dvtm_oq101.proto", "product_name": "Osmo 360"]], [:], [:]],
            name: "indoors.mp4", in: directory)
        #expect {
            try EmbeddedTelemetry.read(indoors.path.path)
        } throws: { error in
            "\(error)".contains("its DJI metadata track (Osmo 360, 11 samples) holds no GPS")
        }
        // Messages that are not the schema's: damage (a data error), not a video without GPS.
        let damaged = try await DJIMetadataVideo(
            from: Self.clip, product: "ac203",
            frames: [["clip": ["proto_file_name": "dvtm_ac203.proto", "product_name": "Osmo Action 4"]]],
            name: "damaged.mp4", in: directory, damagedAfterFirst: true)
        #expect {
            try EmbeddedTelemetry.read(damaged.path.path)
        } throws: { error in
            guard let error = error as? InputFileError, EmbeddedTelemetry.noGPSReason(error) == nil else {
                return false
            }
            return "\(error)".contains(
                "its DJI metadata track (Osmo Action 4) is damaged: 10 of its 11 messages are not the Osmo Action 4/5 "
                    + "(dvtm_ac203, ac204) schema's, and none gave a fix")
        }
    }
}
