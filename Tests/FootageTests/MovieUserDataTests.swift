import Foundation
import TestSupport
import Testing

@testable import Footage

/// The camera's user-data boxes of a real GoPro clip, read and added to copies ffmpeg makes in
/// each layout it writes: with its index at the end (added), first (`faststart`: left alone), and
/// with no user data of its own.
@Suite("Movie user data")
struct MovieUserDataTests {
    static let clip = PackagePaths.sample("video/max-heromode.mp4")

    private func ffmpeg(_ arguments: [String]) async throws {
        let result = try await ProcessRunner.run(
            tool: "ffmpeg", ["-v", "error", "-y"] + arguments, install: "apt-get install ffmpeg")
        #expect(result.status == 0, "\(result.stderr)")
    }

    private func exiftool(_ path: String) async throws -> String {
        try await ProcessRunner.run(
            tool: "exiftool",
            ["-s", "-FirmwareVersion", "-LensSerialNumber", "-SerialNumberHash", "-GPSCoordinates", path],
            install: "apt-get install libimage-exiftool-perl"
        ).stdout
    }

    @Test("GoPro's boxes, without padding, added once to a copy that has none, as exiftool reads them")
    func added() async throws {
        let userData = try #require(MovieUserData(readingFileAt: Self.clip))
        #expect(userData.types == ["©xyz", "FIRM", "LENS", "CAME", "SETT", "MUID", "HMMT", "BCID", "GUMI", "GPMF"])
        let directory = try PackagePaths.temporaryDirectory("udta")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A copy without the camera's metadata: FFmpeg's udta holds only its (empty) `meta`.
        let bare = directory.appendingPathComponent("bare.mp4").path
        try await ffmpeg([
            "-i", Self.clip, "-map", "0:v", "-c", "copy", "-map_metadata", "-1", "-fflags", "+bitexact", bare,
        ])
        #expect(MovieUserData(readingFileAt: bare)?.types == ["meta"])
        #expect(try userData.add(toFileAt: bare) == userData.types)
        let readBack = try #require(MovieUserData(readingFileAt: bare))
        #expect(readBack.types == ["meta"] + userData.types)
        #expect(Array(readBack.boxes.dropFirst()) == userData.boxes, "byte for byte")
        let theirs = try await exiftool(Self.clip)
        #expect(theirs.split(separator: "\n").count == 4, "\(theirs)")
        await #expect(try exiftool(bare) == theirs)
        // Still a file ffprobe reads to its end.
        let probe = try await ProcessRunner.run(
            tool: "ffprobe",
            ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", bare],
            install: "apt-get install ffmpeg")
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "315", "\(probe.stderr)")
        // Again: every type is there already, nothing changes.
        let before = try Data(contentsOf: URL(fileURLWithPath: bare))
        #expect(try userData.add(toFileAt: bare) == [])
        #expect(try Data(contentsOf: URL(fileURLWithPath: bare)) == before)
    }

    @Test("a file whose index comes first (faststart) is left as it was; a cut-off one is read as having none")
    func leftAlone() async throws {
        let userData = try #require(MovieUserData(readingFileAt: Self.clip))
        let directory = try PackagePaths.temporaryDirectory("udta")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fast = directory.appendingPathComponent("fast.mp4").path
        try await ffmpeg([
            "-i", Self.clip, "-map", "0:v", "-c", "copy", "-map_metadata", "-1", "-movflags", "+faststart", fast,
        ])
        let before = try Data(contentsOf: URL(fileURLWithPath: fast))
        #expect(try userData.add(toFileAt: fast) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: fast)) == before)
        // The clip without its last 1000 bytes: its moov runs past the end.
        let cut = directory.appendingPathComponent("cut.mp4")
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.clip))
        try whole.prefix(whole.count - 1000).write(to: cut)
        #expect(MovieUserData(readingFileAt: cut.path) == nil)
    }
}
