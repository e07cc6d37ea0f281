import Foundation
import TestSupport
import Testing

/// A DJI video with its metadata track (`djmd`) annotated, synced and watched with no `--track`
/// (issue 40, item 2), as a user runs the built binary: an Osmo Action 4 clip written from the
/// schema (`DJIMetadataVideo`; synthetic, as no real one may be used).
@Suite("arcapture with a DJI metadata track")
struct DJIMetadataFootageTests {
    /// An Osmo Action 4 clip from `clip` in `directory` (`DJI_20240501100000_0001_D.MP4`): Carlsbad,
    /// where the clip was filmed, heading south 10 m a second; the GPS stamps say the video began at
    /// 2024-05-01T10:00:00Z (a stamp is its whole second).
    static func osmoAction(from clip: String, in directory: URL) async throws -> DJIMetadataVideo {
        try await goingSouth(
            product: "ac203", header: ("dvtm_ac203.proto", "Osmo Action 4"), name: "DJI_20240501100000_0001_D.MP4",
            from: clip, in: directory)
    }

    /// The same ride filmed by an XTRA Edge Pro (its `xtmd` track, `XTRA_0001.MP4`), whose GPS
    /// remote also gives its velocity: 10 m/s south.
    static func xtraEdgePro(from clip: String, in directory: URL) async throws -> DJIMetadataVideo {
        try await goingSouth(
            product: "ae2504", header: ("dvtm_ae2504.proto", "XTRA Edge Pro"), name: "XTRA_0001.MP4", from: clip,
            in: directory)
    }

    private static func goingSouth(
        product: String, header: (file: String, name: String), name: String, from clip: String, in directory: URL
    ) async throws -> DJIMetadataVideo {
        let times = try await DJIMetadataVideo.packetTimes(of: clip)
        let frames: [DJIMetadataVideo.Frame] = times.enumerated().map { index, time in
            var frame: DJIMetadataVideo.Frame = [
                "lat": 33.12677 - Double(index) * 0.00009, "lon": -117.3273436, "alt_mm": 15_000, "alt_type": 1,
                "time": String(format: "2024-05-01 10:00:%02d", Int(time)), "north": -10.0, "east": 0.0,
            ]
            if index == 0 { frame["clip"] = ["proto_file_name": header.file, "product_name": header.name] }
            return frame
        }
        return try await DJIMetadataVideo(from: clip, product: product, frames: frames, name: name, in: directory)
    }

    @Test("annotate, location and sync read an Osmo Action's own GPS: poses at its fixes, the start from its stamps")
    func osmoAction() async throws {
        let directory = try PackagePaths.temporaryDirectory("djmd-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("video/max-heromode.mp4")
        let video = try await Self.osmoAction(from: clip, in: directory)
        let annotation = try await CourseAnnotation(video.path.path, in: directory)
        let result = annotation.result
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "note: poses from \(video.path.path)'s own GPS (DJI metadata): 11 fixes from 11 DJI metadata samples "
                    + "(Osmo Action 4, schema Osmo Action 4/5 (dvtm_ac203, ac204); GPS time stamps read as UTC)"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "time: the first frame at 2024-05-01T10:00:00.000Z from the GPS time stamps in the video's DJI (or "
                    + "XTRA) metadata track, read as UTC"), "\(result.stderr)")
        #expect(result.stderr.contains("315 frames in, 315 out (315 annotated"), "\(result.stderr)")
        #expect(annotation.records.count == 315)
        // Frame 0 at the first fix, heading south along the track.
        let pose = try annotation.firstPose()
        #expect(abs((pose["lat"] as? Double ?? 0) - 33.12677) < 1e-6, "\(pose)")
        #expect(abs((pose["lon"] as? Double ?? 0) + 117.3273436) < 1e-6, "\(pose)")
        #expect(abs((pose["heading_deg"] as? Double ?? 0) - 180) < 2, "\(pose)")

        let location = try await Binary.run(["location", video.path.path, "--count", "2"])
        #expect(location.status == 0, "\(location.stderr)")
        #expect(
            location.stdout.contains("fix      2024-05-01T10:00:00.000Z  3D  33.1267700, -117.3273436"),
            "\(location.stdout)")

        let sync = try await Binary.run(["sync", "--footage", video.path.path, "--json"])
        #expect(sync.status == 0, "\(sync.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(sync.stdout.utf8)) as? [String: Any])
        let track = try #require(report["track"] as? [String: Any], "\(report)")
        #expect(track["fixes"] as? Int == 11, "\(track)")
    }

    @Test(
        "an Avata's track (no GPS in its layout), or a clip that never had a fix: a track is asked for (64); damage is 65"
    )
    func noGPS() async throws {
        let directory = try PackagePaths.temporaryDirectory("djmd-cli-nogps")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("video/max-heromode.mp4")
        let avata = try await DJIMetadataVideo(
            from: clip, product: "ac203",
            frames: [["clip": ["proto_file_name": "dvtm_wm169.proto", "product_name": "DJI Avata"]]],
            name: "DJI_0001.MP4", in: directory)
        let indoors = try await DJIMetadataVideo(
            from: clip, product: "oq101",
            frames: [["clip": ["proto_file_name": "dvtm_oq101.proto", "product_name": "Osmo 360"]], [:], [:]],
            name: "DJI_0002.MP4", in: directory)
        let pois = PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson")
        let output = directory.appendingPathComponent("out.y4m").path
        func annotate(_ video: DJIMetadataVideo, _ extra: [String] = []) async throws -> Binary.Result {
            try await Binary.run(["annotate", video.path.path, "--pois", pois, "--hfov", "118"] + extra)
        }
        for (video, found) in [
            (
                avata,
                "its DJI metadata track (djmd) is DJI Avata's (dvtm_wm169.proto), whose layout holds no GPS"
            ),
            (indoors, "its DJI metadata track (Osmo 360, 11 samples) holds no GPS"),
        ] {
            let result = try await annotate(video, ["--output", output])
            #expect(result.status == 64, "\(result.stderr)")
            #expect(
                result.stderr.contains("error: give --track FILE: \(video.path.path) carries no GPS of its own ("),
                "\(result.stderr)")
            #expect(result.stderr.contains(found), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
        // A damaged track is a data error (65), named, not a video to give a track for.
        let damaged = try await DJIMetadataVideo(
            from: clip, product: "ac203",
            frames: [["clip": ["proto_file_name": "dvtm_ac203.proto", "product_name": "Osmo Action 4"]]],
            name: "DJI_0003.MP4", in: directory, damagedAfterFirst: true)
        let broken = try await annotate(damaged, ["--output", output])
        #expect(broken.status == 65, "\(broken.stderr)")
        #expect(
            broken.stderr.contains("\(damaged.path.path): its DJI metadata track (Osmo Action 4) is damaged"),
            "\(broken.stderr)")
        // With the place given, the clip annotates and says why its own telemetry is not used.
        let placed = try await annotate(
            avata,
            [
                "--position", "33.12677,-117.3273436,15", "--orientation", "180", "--start", "2024-05-01T10:00:00Z",
                "--output", directory.appendingPathComponent("placed.y4m").path,
            ])
        #expect(placed.status == 0, "\(placed.stderr)")
        #expect(
            placed.stderr.contains(
                "warning: \(avata.path.path): its own telemetry is not used: no GPMF telemetry track (gpmd) among its "
                    + "streams"), "\(placed.stderr)")
        #expect(placed.stderr.contains("whose layout holds no GPS"), "\(placed.stderr)")
    }
}
