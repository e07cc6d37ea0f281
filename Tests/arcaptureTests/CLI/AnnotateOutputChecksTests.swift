import Foundation
import TestSupport
import Testing

/// `annotate` never reports frames written that it did not write, nor writes something other than
/// what its output's name says (issue 20's items 1, 4 and 5), run as a user would.
@Suite("arcapture annotate: no silent wrong output")
struct AnnotateOutputChecksTests {
    private let clip = PackagePaths.sample("footage/harbour.mjpeg")

    /// The harbour sample at `fps` from `start`.
    private func harbour(fps: String = "8", start: String = "2022-08-14T11:12:32Z") -> [String] {
        var arguments = AnnotateFootageTests.harbour
        arguments[arguments.firstIndex(of: "--fps").map { $0 + 1 } ?? 0] = fps
        arguments[arguments.firstIndex(of: "--start").map { $0 + 1 } ?? 0] = start
        return arguments
    }

    private func files(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("a template that would give two frames one name is refused before any work, --force or not")
    func templateClash() throws {
        let directory = try PackagePaths.temporaryDirectory("names")
        defer { try? FileManager.default.removeItem(at: directory) }
        let template = directory.path + "/%Y%m%d-%H%M%S.jpg"
        for force in [[], ["--force"]] {
            let result = try Binary.run(["annotate", clip] + harbour(fps: "2") + ["--output", template] + force)
            #expect(result.status == 64, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "would give several frames one name (2 frames a second; it changes every second): add %n"),
                "\(result.stderr)")
            #expect(files(in: directory).isEmpty, "nothing written")
        }
        // One frame a second: every name differs, every frame is written.
        let slow = try Binary.run(["annotate", clip] + harbour(fps: "1") + ["--output", template])
        #expect(slow.status == 0, "\(slow.stderr)")
        #expect(slow.stderr.contains("48 frames in, 48 out"), "\(slow.stderr)")
        #expect(files(in: directory).count == 48)
    }

    @Test("photos with one EXIF time stop the run at the repeated name (73) instead of replacing each other")
    func repeatedNameAtRunTime() throws {
        let directory = try PackagePaths.temporaryDirectory("names")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Two copies of one photo: one EXIF time (14:12:31+03:00), names known only as each is written.
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["a.jpg", "b.jpg"] {
            try FileManager.default.copyItem(
                atPath: PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg"),
                toPath: photos.appendingPathComponent(name).path)
        }
        let out = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for force in [[], ["--force"]] {
            let result = try Binary.run(
                [
                    "annotate", photos.path, "--pois", PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"),
                    "--hfov", "100", "--workers", "1", "--output", out.path + "/%Y%m%d-%H%M%S.jpg",
                ] + force, environment: ["TZ": "UTC"])
            #expect(result.status == 73, "\(result.stderr)")
            #expect(
                result.stderr.contains("20220814-111231.jpg': an earlier frame of this run has that name"),
                "\(result.stderr)")
            #expect(files(in: out) == ["20220814-111231.jpg"], "the first photo's, not replaced by the second")
            try? FileManager.default.removeItem(at: out.appendingPathComponent("20220814-111231.jpg"))
        }
    }

    @Test(
        "an output name that says something else than what is written is refused, with the choices",
        arguments: [
            ("o.jpg", "names one JPEG, but footage is many frames"),
            ("out.avi", "arcapture writes an MJPEG stream (FILE.mjpeg), Y4M (FILE.y4m) or one JPEG per frame"),
            ("frames-%03n.png", "frames are written as JPEGs, so the name should end in .jpg, not .png"),
        ])
    func mismatchedExtension(name: String, message: String) throws {
        let directory = try PackagePaths.temporaryDirectory("names")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Binary.run(
            ["annotate", clip] + harbour() + ["--output", directory.appendingPathComponent(name).path])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(files(in: directory).isEmpty)
    }

    @Test("footage whose times all miss the track fails (1) instead of copying itself unannotated")
    func timesMissTheTrack() throws {
        let directory = try PackagePaths.temporaryDirectory("miss")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.mjpeg").path
        // A year late: the first frame is after the track's end, refused before any work.
        let late = try Binary.run(["annotate", clip] + harbour(start: "2023-08-14T11:12:32Z") + ["--output", output])
        #expect(late.status == 1, "\(late.stderr)")
        #expect(
            late.stderr.contains(
                "first frame (2023-08-14T11:12:32Z) comes after the track (2022-08-14T11:12:32Z to 2022-08-14T11:12:38Z)"
            ),
            "\(late.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        // A year early: MJPEG's frame count is only an estimate, so this is found at the end.
        let early = try Binary.run(["annotate", clip] + harbour(start: "2021-08-14T11:12:32Z") + ["--output", output])
        #expect(early.status == 1, "\(early.stderr)")
        #expect(early.stderr.contains("no frame was annotated: the track gives none of the 48 frames a pose"))
        // Asked for: the frames pass through, 0.
        let asked = try Binary.run(
            ["annotate", clip] + harbour(start: "2023-08-14T11:12:32Z") + [
                "--output", output, "--force", "--pass-through",
            ])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stderr.contains("48 frames in, 48 out (0 annotated, 48 without a pose passed through)"))
    }
}
