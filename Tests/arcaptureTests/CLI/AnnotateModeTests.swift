import Foundation
import Positioning
import TestSupport
import Testing

/// `annotate` refuses options that mean nothing for what it is doing, and its errors name only
/// what the command accepts, fonts included (issue 20, items 7, 8 and 14), run as a user would.
@Suite("arcapture annotate: options for the mode")
struct AnnotateModeTests {
    private let photo = AnnotateCommandTests.photo
    private let pois = ["--pois", AnnotateCommandTests.pois]
    private let clip = PackagePaths.sample("footage/harbour.mjpeg")

    @Test("footage options with one photo are refused (64), naming them and the mode; nothing is written")
    func footageOptionsForAPhoto() async throws {
        let directory = try PackagePaths.temporaryDirectory("mode")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("o.jpg").path
        let sidecar = directory.appendingPathComponent("poses.jsonl").path
        let result = try await Binary.run(
            ["annotate", photo] + pois + AnnotateCommandTests.pose + [
                "--track", PackagePaths.sample("footage/harbour.gpx"), "--sidecar", sidecar, "--workers", "2",
                "--fps", "3", "--output", output,
            ])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "--track, --workers, --sidecar and --fps do not apply to one photo (one image, one pose: --position or its EXIF geotag)"
            ), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output) && !FileManager.default.fileExists(atPath: sidecar))
    }

    @Test("photo options with footage are refused (64), each with the reason")
    func photoOptionsForFootage() async throws {
        let result = try await Binary.run(
            ["annotate", clip] + AnnotateFootageTests.harbour + [
                "--time", "2022-08-14T11:12:32Z", "--subsampling", "444", "--output", "/tmp/never.mjpeg",
            ])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "--subsampling and --time do not apply to footage (--subsampling: frames keep the input's chroma layout; "
                    + "--time: frames are timed by --start and --fps, or by their EXIF)"), "\(result.stderr)")
    }

    @Test(
        "a missing or doubled camera is said in this command's words (no --size for a photo)",
        arguments: [
            (
                [AnnotateCommandTests.photo, "--position", "60.146706,24.906772,21"],
                "a camera is required: --camera FILE.yaml or --hfov DEGREES (the image gives the size)"
            ),
            (
                [
                    PackagePaths.sample("footage/harbour.mjpeg"), "--track", PackagePaths.sample("footage/harbour.gpx"),
                    "--fps", "8", "--hfov", "60", "--camera", PackagePaths.sample("footage/harbour-camera.yaml"),
                ],
                "--camera and --hfov are alternatives; give one"
            ),
            (
                [PackagePaths.sample("footage/harbour.mjpeg"), "--track", PackagePaths.sample("footage/harbour.gpx")],
                "a camera is required: --camera FILE.yaml or --hfov DEGREES"
            ),
        ])
    func cameraMessages(arguments: [String], message: String) async throws {
        let result = try await Binary.run(
            ["annotate"] + arguments + pois + ["--output", "/tmp/never-\(UUID().uuidString).mjpeg"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("error: " + message), "\(result.stderr)")
        #expect(!result.stderr.contains("--size"))
    }

    @Test("one geotagged photo without --position is drawn for its EXIF position and image direction")
    func photoFromItsGeotag() async throws {
        let directory = try PackagePaths.temporaryDirectory("mode")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("o.jpg").path
        let result = try await Binary.run(["annotate", photo] + pois + ["--hfov", "100", "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "the pose from \(photo)'s EXIF: 60.146706, 24.906772, no altitude (sea level), 17.9 m on the "
                    + "ellipsoid with EGM96's geoid, heading 65.9° (its image "
                    + "direction, 56.0° from magnetic north, with the declination 9.9° E (WMM2020) there)"
            ), "\(result.stderr)")
        #expect(result.stdout == output + "\n")
        // The same drawing as the pose given by hand: 56° magnetic and WMM2020's 9.87194027993° E
        // there on 2022-08-14 (PhotoHeadingTests checks it against pygeomag).
        // Sea level there is EGM96's 17.9 m above the ellipsoid (GeoidGridTests holds it to PROJ's).
        let byHand = directory.appendingPathComponent("by-hand.jpg").path
        let seaLevel = try GeoidGrid.shared.get().separation(latitude: 60.146705555555556, longitude: 24.90677222222222)
        let given = try await Binary.run(
            ["annotate", photo] + pois + [
                "--position", "60.146705555555556,24.90677222222222,\(seaLevel)", "--orientation", "65.87194027993472",
                "--hfov",
                "100",
                "--output", byHand,
            ])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: byHand)))
        // A photo without a geotag says what to give.
        let bare = try await Binary.run(
            ["annotate", PackagePaths.sample("frames/lund-640x480.jpg")] + pois + [
                "--hfov", "100", "--output", directory.appendingPathComponent("bare.jpg").path,
            ])
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("has no GPS position in its EXIF: give --position LAT,LON,ALT"))
    }

    @Test(
        "--font: an unknown name says which font is drawn instead; a missing file is 66, a file that is no font 65",
        arguments: [
            // fontconfig's choice is the machine's (Noto Sans where Noto is installed): fc-match's.
            ("NoSuchFont", 0, "warning: font 'NoSuchFont': fontconfig has no such font; using {fc-match} ("),
            ("monospace", 0, ""),
            ("nope.ttf", 66, "error: font 'nope.ttf': no such font file"),
            (PackagePaths.root.appendingPathComponent("README.md").path, 65, "': not a font FreeType can read"),
        ])
    func fonts(font: String, status: Int32, message: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("font")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("o.jpg").path
        let result = try await Binary.run(
            ["annotate", photo] + pois + AnnotateCommandTests.pose + ["--font", font, "--output", output])
        #expect(result.status == status, "\(result.stderr)")
        var message = message
        if message.contains("{fc-match}") {
            let family = try await ProcessRunner.output(
                tool: "fc-match", ["-f", "%{family[0]}", font], package: "fontconfig")
            #expect(!family.isEmpty)
            message = message.replacingOccurrences(of: "{fc-match}", with: family)
        }
        if message.isEmpty {
            #expect(!result.stderr.contains("font"), "\(result.stderr)")
        } else {
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: output) == (status == 0))
    }
}
