import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import ArcaptureCLI
@testable import JPEGKit

/// `arcapture annotate` on a real geotagged photo (Helsinki West Harbour, CC BY-SA 4.0) with real
/// OpenStreetMap POIs, checked with ffmpeg, an independent decoder.
@Suite("arcapture annotate")
struct AnnotateCommandTests {
    static let photo = PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg")
    static let pois = PackagePaths.sample("pois/helsinki_center_osm_pois.geojson")
    static let pose = ["--position", "60.146706,24.906772,21", "--orientation", "60,0,0", "--hfov", "100"]

    /// The RGB of one pixel, decoded by ffmpeg (raw bytes through a file: stdout is read as text).
    private func pixel(_ file: String, x: Int, y: Int) async throws -> (Int, Int, Int) {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("pixel-\(UUID().uuidString).rgb")
        defer { try? FileManager.default.removeItem(at: raw) }
        _ = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-i", file, "-vf", "format=rgb24,crop=1:1:\(x):\(y)", "-f", "rawvideo", "-pix_fmt",
                "rgb24", "-y", raw.path,
            ],
            install: "apt-get install ffmpeg")
        let bytes = Array(try Data(contentsOf: raw))
        guard bytes.count >= 3 else { return (-1, -1, -1) }
        return (Int(bytes[0]), Int(bytes[1]), Int(bytes[2]))
    }

    @Test("the nearest POI's marker is drawn where `project` puts it; size and subsampling are kept")
    func markerWhereProjected() async throws {
        let directory = try PackagePaths.temporaryDirectory("annotate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("harbour.jpg").path
        let result = try await Binary.run(
            ["annotate", Self.photo, "--pois", Self.pois] + Self.pose + ["--output", output, "--max-markers", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == output + "\n")
        #expect(result.stderr.contains("1 markers, 1 labels (0 hidden for lack of room)"))

        let projected = try await Binary.run(
            ["project", "--pois", Self.pois] + Self.pose + ["--size", "1600x686", "--in-view", "--json"])
        let points = try #require(
            try JSONSerialization.jsonObject(with: Data(projected.stdout.utf8)) as? [[String: Any]])
        let nearest = try #require(
            points.min { ($0["distance_m"] as? Double ?? 0) < ($1["distance_m"] as? Double ?? 0) })
        let u = Int(((nearest["u"] as? Double) ?? 0).rounded())
        let v = Int(((nearest["v"] as? Double) ?? 0).rounded())
        // The marker's red (#e63946) at its centre, within JPEG's error; the input there is sky or
        // buildings, nowhere near that red.
        let (r, g, b) = try await pixel(output, x: u, y: v)
        #expect(abs(r - 230) < 40 && abs(g - 57) < 40 && abs(b - 70) < 40, "(\(r), \(g), \(b)) at \(u), \(v)")
        let (r0, g0, b0) = try await pixel(Self.photo, x: u, y: v)
        #expect(!(abs(r0 - 230) < 40 && abs(g0 - 57) < 40 && abs(b0 - 70) < 40))

        let probe = try await ProcessRunner.run(
            tool: "ffprobe", ["-v", "error", "-show_entries", "stream=width,height,pix_fmt", "-of", "csv=p=0", output],
            install: "apt-get install ffmpeg")
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1600,686,yuvj420p")
    }

    @Test("--output - writes the annotated photo to stdout, as for footage, not to a file named '-'")
    func photoToStandardOutput() async throws {
        let directory = try PackagePaths.temporaryDirectory("photo-stdout")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = [Binary.path, "annotate", Self.photo, "--pois", Self.pois] + Self.pose + ["--output", "-"]
        let command =
            "cd '\(directory.path)' && " + arguments.map { "'\($0)'" }.joined(separator: " ") + " > annotated.jpg"
        let result = try await Binary.run(executable: "/bin/sh", arguments: ["-c", command])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["annotated.jpg"])
        let bytes = Array(try Data(contentsOf: directory.appendingPathComponent("annotated.jpg")))
        let image = try JPEGDecoder().decode(bytes)
        let original = try JPEGDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: Self.photo))))
        #expect(image.width == original.width && image.height == original.height)
        #expect(result.stderr.contains("markers"), "the summary still goes to stderr: \(result.stderr)")
    }

    @Test("an existing output is kept unless --force; bad inputs exit 65 and 66")
    func safety() async throws {
        let directory = try PackagePaths.temporaryDirectory("annotate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.jpg").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try await Binary.run(
            ["annotate", Self.photo, "--pois", Self.pois] + Self.pose + ["--output", output])
        #expect(refused.status == 73)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        let forced = try await Binary.run(
            ["annotate", Self.photo, "--pois", Self.pois] + Self.pose + ["--output", output, "--force"])
        #expect(forced.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).prefix(2) == Data([0xFF, 0xD8]))

        let notJPEG = directory.appendingPathComponent("notes.jpg").path
        try Data("not a jpeg".utf8).write(to: URL(fileURLWithPath: notJPEG))
        let bad = try await Binary.run(["annotate", notJPEG, "--pois", Self.pois] + Self.pose)
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("not a JPEG or HEIC image"))
        let missing = try await Binary.run(
            ["annotate", Self.photo, "--pois", "/nonexistent/p.geojson"] + Self.pose + ["--output", output, "--force"])
        #expect(missing.status == 66)
        let noFont = try await Binary.run(
            ["annotate", Self.photo, "--pois", Self.pois] + Self.pose + [
                "--output", output, "--force", "--font", "/nonexistent/f.ttf",
            ])
        #expect(noFont.status == 66)
        #expect(noFont.stderr.contains("font '/nonexistent/f.ttf': no such font file"))
    }

    @Test(
        "--route draws the ribbon and the panel and reports the instruction; --style and --banner apply; --subsampling")
    func routeStyleBanner() async throws {
        let directory = try PackagePaths.temporaryDirectory("annotate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("plain.jpg").path
        let toured = directory.appendingPathComponent("tour.jpg").path
        let base = ["annotate", Self.photo, "--pois", Self.pois] + Self.pose + ["--max-markers", "0"]
        await #expect(try Binary.run(base + ["--output", plain]).status == 0)
        let result = try await Binary.run(
            base + [
                "--output", toured, "--route", PackagePaths.sample("routes/west-harbour-tour.geojson"),
                "--style", PackagePaths.sample("styles/night.json"), "--ground-speed", "6", "--subsampling", "444",
                "--banner", "frame {frame} at {lat},{lon}",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("route harbour-tour: 670 m, 2 manoeuvres; Bear left in 260 m; 660 m · 2 min left"))
        // The panel (top left, dark navy in this style) over the sky; the ribbon (green) on the water
        // straight ahead; the banner's strip along the bottom.
        let (pr, pg, pb) = try await pixel(toured, x: 14, y: 14)
        #expect(pr < 60 && pg < 60 && pb < 90, "panel (\(pr), \(pg), \(pb))")
        let (rr, rg, rb) = try await pixel(toured, x: 800, y: 640)
        #expect(rg > rr + 60 && rg > 110, "ribbon (\(rr), \(rg), \(rb))")
        let (sr, sg, sb) = try await pixel(plain, x: 800, y: 640)
        #expect(!(sg > sr + 60 && sg > 110), "the water itself is not green (\(sr), \(sg), \(sb))")
        let probe = try await ProcessRunner.run(
            tool: "ffprobe", ["-v", "error", "-show_entries", "stream=pix_fmt", "-of", "csv=p=0", toured],
            install: "apt-get install ffmpeg")
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "yuvj444p")

        // A GPX track as the route, from its first point: navigation starts with its length.
        let gpx = try await Binary.run([
            "annotate", Self.photo, "--pois", Self.pois, "--position", "45.273519,13.714210,260", "--hfov", "100",
            "--route", PackagePaths.sample("gpx/around-visnjan-with-car.gpx"), "--output", toured, "--force",
        ])
        #expect(gpx.status == 0, "\(gpx.stderr)")
        #expect(gpx.stderr.contains("2.7 km left"), "\(gpx.stderr)")
    }

    @Test(
        "a bad style, banner or route is named with what is wrong",
        arguments: [
            (##"{"colors": {"rute": "#ffffff"}}"##, "style", 65, #"key "colors.rute": unknown key"#),
            (#"{"type": "Point", "coordinates": [24.9, 60.1]}"#, "route", 65, "no route: the file has no LineString"),
            ("{lat} {when}", "banner", 64, "--banner: banner template, character 7: unknown token {when}"),
        ])
    func badInputs(content: String, option: String, status: Int32, message: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("annotate")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("input.json").path
        try Data(content.utf8).write(to: URL(fileURLWithPath: file))
        let output = directory.appendingPathComponent("out.jpg").path
        let result = try await Binary.run(
            ["annotate", Self.photo, "--pois", Self.pois] + Self.pose + [
                "--output", output, "--\(option)", option == "banner" ? content : file,
            ])
        #expect(result.status == status)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
