import Foundation
import TestSupport
import Testing

/// A run killed outright (`kill -9`, as the OOM killer does) leaves its hidden temporary output;
/// the next run writing into that folder removes it and says so (issue 39, item 10).
@Suite("arcapture annotate: what a killed run left")
struct LeftoverTemporaryFileTests {
    @Test("kill -9 mid-run leaves .out.mjpeg.arcapture-HOST-PID.tmp; the next run removes it, and says so")
    func killedRunCleanedUp() async throws {
        let directory = try PackagePaths.temporaryDirectory("leftover")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        let made = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-loop", "1", "-i", AnnotateFootageTests.frame, "-frames:v", "20", "-q:v", "4",
                "-f", "mjpeg", "-y", clip,
            ], install: "apt-get install ffmpeg")
        #expect(made.status == 0, "\(made.stderr)")
        let arguments = [
            "--pois", AnnotateFootageTests.pois, "--hfov", "70", "--position", "45.2,13.6,100", "--start",
            "2020-12-18T06:16:00Z", "--fps", "2",
        ]
        let folder = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("out.mjpeg").path

        // Footage through a pipe held open: the run waits for more, however fast it is, until killed.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["annotate", "-"] + arguments + ["--output", output]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: clip)))
        let leftover = { () -> String? in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).first {
                $0.hasPrefix(".out.mjpeg.arcapture-") && $0.hasSuffix("-\(process.processIdentifier).tmp")
            }
        }
        // Killed once it has written a frame into its temporary file.
        #expect(
            waitUntil {
                guard let name = leftover() else { return false }
                let path = folder.appendingPathComponent(name).path
                return ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int ?? 0) > 0
            })
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        let name = try #require(leftover(), "the killed run's temporary file")

        // A run writing another file into the folder: the leftover goes, and is named.
        let next = try await Binary.run(
            ["annotate", clip] + arguments + ["--output", folder.appendingPathComponent("b.mjpeg").path])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(
            next.stderr.contains(
                "note: removed 1 temporary file that a run killed before its end left on this host "
                    + "(\(folder.appendingPathComponent(name).path))"), "\(next.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["b.mjpeg"])
    }
}
