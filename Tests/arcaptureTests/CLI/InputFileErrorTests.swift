import Foundation
import TestSupport
import Testing

/// Input files that cannot be used are named with the reason in a user's words, never
/// Foundation's ("NSCocoaErrorDomain error 256") (issue 20, item 10), run as a user would.
@Suite("arcapture: input file errors in words")
struct InputFileErrorTests {
    private static let pois = PackagePaths.sample("pois/helsinki-senate-square.geojson")

    @Test(
        "a folder given where a file is expected: 'it is a folder', 66",
        arguments: [
            ["project", "--pois", "/tmp", "--position", "60.17,24.95,10", "--hfov", "60", "--size", "640x480"],
            ["project", "--pois", pois, "--camera", "/tmp", "--position", "60.17,24.95,10"],
            ["sync", "--track", "/tmp", "--footage", PackagePaths.sample("footage/harbour.mjpeg")],
            ["location", "/tmp"],
        ])
    func folderForAFile(arguments: [String]) async throws {
        let result = try await Binary.run(arguments)
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("/tmp: cannot be read (it is a folder, not a file)"), "\(result.stderr)")
        #expect(!result.stderr.contains("Domain"))
    }

    @Test("a GPX track cut short says where and that it was cut (65), not libxml2's number")
    func cutTrack() async throws {
        let directory = try PackagePaths.temporaryDirectory("cut")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("gpx/korita-zbevnica.gpx")))
        let cut = directory.appendingPathComponent("cut.gpx")
        try whole.prefix(20_000).write(to: cut)
        let lines = whole.prefix(20_000).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        for arguments in [
            ["location", cut.path],
            ["sync", "--track", cut.path, "--footage", PackagePaths.sample("footage/harbour.mjpeg")],
        ] {
            let result = try await Binary.run(arguments)
            #expect(result.status == 65, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "cut.gpx: the XML ends in the middle of an element at line \(lines) (was the file cut short?)"),
                "\(result.stderr)")
        }
    }
}
