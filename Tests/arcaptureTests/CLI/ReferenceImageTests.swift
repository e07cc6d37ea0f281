import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import JPEGKit

/// Scenes drawn by the built binary and compared with committed reference JPEGs by PSNR: a change
/// to what is drawn (a label lost, a panel moved) costs far more than the 35 dB floor allows, while
/// re-encoding noise does not. `ARCAPTURE_UPDATE_REFERENCES=1` writes new references instead.
@Suite("Reference images")
struct ReferenceImageTests {
    static let references = PackagePaths.root.appendingPathComponent("Tests/arcaptureTests/References")

    static let scenes: [(name: String, arguments: [String])] = [
        (
            "harbour-route-style",
            [
                PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg"), "--pois",
                PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"), "--position", "60.146706,24.906772,21",
                "--orientation", "60,0,0", "--hfov", "100", "--height-above-ground", "4", "--max-markers", "12",
                "--route", PackagePaths.sample("routes/west-harbour-tour.geojson"), "--ground-speed", "6", "--style",
                PackagePaths.sample("styles/night.json"),
            ]
        ),
        (
            "lund-off-route",
            [
                PackagePaths.sample("frames/lund-640x480.jpg"), "--pois",
                PackagePaths.sample("pois/geonames_places_near_datasets.geojson"), "--position", "55.7100,13.1850,60",
                "--orientation", "150,-2,0", "--hfov", "75", "--max-distance", "20000", "--units", "imperial",
                "--route", references.appendingPathComponent("lund-detour.geojson").path, "--ground-speed", "1.4",
                "--banner", "Lund · {lat}, {lon} · {heading} · {time:%Y-%m-%d}", "--time", "2024-05-17T10:00:00Z",
            ]
        ),
        (
            "lund-west-420",
            [
                PackagePaths.sample("frames/lund-640x480.jpg"), "--pois",
                PackagePaths.sample("pois/geonames_places_near_datasets.geojson"), "--position", "55.7100,13.1850,60",
                "--orientation", "250,-2,0", "--hfov", "75", "--max-distance", "30000", "--subsampling", "420",
                "--banner", "{lat}, {lon} · {heading}",
            ]
        ),
    ]

    /// PSNR of the luma and chroma planes together, in dB.
    static func psnr(_ a: YCbCrImage, _ b: YCbCrImage) -> Double {
        var squared = 0.0
        var count = 0
        for index in a.planes.indices {
            let (p, q) = (a.planes[index], b.planes[index])
            for y in 0..<p.height {
                for x in 0..<p.width {
                    let d = Double(p[x, y]) - Double(q[x, y])
                    squared += d * d
                    count += 1
                }
            }
        }
        let mse = squared / Double(max(count, 1))
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    @Test("each scene draws as its reference image (PSNR at least 35 dB)", arguments: scenes.map(\.name))
    func scene(name: String) async throws {
        let arguments = try #require(Self.scenes.first { $0.name == name }).arguments
        let directory = try PackagePaths.temporaryDirectory("reference")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("\(name).jpg").path
        // Local time is UTC for the banner's {time}, whatever the machine's zone.
        let result = try await Binary.run(["annotate"] + arguments + ["--output", output], environment: ["TZ": "UTC"])
        #expect(result.status == 0, "\(result.stderr)")
        let reference = Self.references.appendingPathComponent("\(name).jpg")
        if ProcessInfo.processInfo.environment["ARCAPTURE_UPDATE_REFERENCES"] == "1" {
            try? FileManager.default.removeItem(at: reference)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: output), to: reference)
            return
        }
        let decoder = try JPEGDecoder()
        let drawn = try decoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        let expected = try decoder.decode(Array(try Data(contentsOf: reference)))
        #expect(drawn.width == expected.width && drawn.height == expected.height)
        #expect(drawn.subsampling == expected.subsampling)
        let value = Self.psnr(drawn, expected)
        print("reference \(name): PSNR \(value.isFinite ? String(format: "%.1f dB", value) : "identical")")
        #expect(value >= 35, "\(name): PSNR \(value) dB against \(reference.path)")
        // And the input itself is far from the reference: the overlay is what the PSNR measures.
        let input = try decoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: arguments[0]))))
        if input.subsampling == expected.subsampling { #expect(Self.psnr(input, expected) < 30) }
    }
}
