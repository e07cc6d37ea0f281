import Foundation
import TestSupport
import Testing

/// Nothing is left out without a word, nor reported drawn when it was not: features that are not
/// POIs are named, `--select` takes the names a user reads on labels, and the summary counts what
/// the style's layers let through (issue 20, items 9 and 12), run as a user would.
@Suite("arcapture: nothing skipped without a word")
struct EmptyResultsTests {
    private let senate = PackagePaths.sample("pois/helsinki-senate-square.geojson")
    private let route = PackagePaths.sample("routes/west-harbour-tour.geojson")

    @Test("a GeoJSON of LineStrings given as POIs says it holds lines, not POIs, for project and annotate")
    func linesAsPOIs() async throws {
        let projected = try await Binary.run([
            "project", "--pois", route, "--position", "60.1467,24.9068,21", "--hfov", "60", "--size", "640x480",
        ])
        #expect(projected.status == 0)
        #expect(
            projected.stderr.contains(
                "\(route): skipped 1 line (LineString, MultiLineString): only Points and areas are POIs; a line is a route (--route)"
            ),
            "\(projected.stderr)")
        #expect(projected.stderr.contains("\(route): no Point or area features, so no POIs to draw"))
        let directory = try PackagePaths.temporaryDirectory("lines")
        defer { try? FileManager.default.removeItem(at: directory) }
        let footage = try await Binary.run(
            ["annotate", PackagePaths.sample("footage/harbour.mjpeg")]
                + AnnotateFootageTests.harbour.map {
                    $0 == PackagePaths.sample("pois/helsinki_center_osm_pois.geojson") ? route : $0
                }
                + ["--output", directory.appendingPathComponent("o.mjpeg").path])
        #expect(footage.status == 0, "\(footage.stderr)")
        #expect(footage.stderr.contains("\(route): skipped 1 line"), "\(footage.stderr)")
    }

    @Test("--select takes a POI's name as well as its id: the same frame either way")
    func selectByName() async throws {
        let directory = try PackagePaths.temporaryDirectory("select")
        defer { try? FileManager.default.removeItem(at: directory) }
        func annotate(_ select: String, _ name: String) async throws -> (Data, String) {
            let output = directory.appendingPathComponent(name).path
            let result = try await Binary.run(
                ["annotate", AnnotateCommandTests.photo, "--pois", senate] + AnnotateCommandTests.pose + [
                    "--select", select, "--output", output,
                ])
            #expect(result.status == 0, "\(result.stderr)")
            return (try Data(contentsOf: URL(fileURLWithPath: output)), result.stderr)
        }
        let (byId, _) = try await annotate("node/1815986142", "id.jpg")
        let (byName, quiet) = try await annotate("kolera-allas", "name.jpg")
        let (unselected, _) = try await annotate("nothing-like-it-at-all", "none.jpg")
        #expect(byName == byId)
        #expect(byId != unselected, "selecting changes the frame")
        #expect(!quiet.contains("warning"))
        let (_, typo) = try await annotate("Kolera-alas", "typo.jpg")
        #expect(
            typo.contains(
                "warning: 'Kolera-alas' is selected (--select, or the style's \"selected\") but no POI has that id or name; "
                    + "did you mean 'node/1815986142' (Kolera-allas)?"), "\(typo)")
    }

    @Test("the summary counts what the style's layers draw: none for [], labels alone for [\"labels\"]")
    func summaryCountsWhatIsDrawn() async throws {
        let directory = try PackagePaths.temporaryDirectory("layers")
        defer { try? FileManager.default.removeItem(at: directory) }
        func summary(_ layers: String) async throws -> String {
            let style = directory.appendingPathComponent("style.json")
            try Data("{\"layers\": \(layers)}".utf8).write(to: style)
            let result = try await Binary.run(
                ["annotate", AnnotateCommandTests.photo, "--pois", AnnotateCommandTests.pois]
                    + AnnotateCommandTests.pose + [
                        "--style", style.path, "--output", directory.appendingPathComponent("o.jpg").path, "--force",
                    ])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stderr
        }
        let all = try await summary("[\"markers\", \"labels\", \"edge-arrows\"]")
        let placed = try #require(all.range(of: "30 markers, ")).upperBound
        let labelCount = try #require(Int(all[placed...].prefix { $0.isNumber }))
        #expect(labelCount > 0, "\(all)")
        let none = try await summary("[]")
        #expect(none.contains("0 markers, 0 labels (0 hidden for lack of room), 0 arrows"), "\(none)")
        let labels = try await summary("[\"labels\"]")
        #expect(labels.contains("0 markers, \(labelCount) labels"), "\(labels)")
    }
}
