import Foundation
import TestSupport
import Testing

/// `annotate` never reports frames written that it did not write, nor writes something other than
/// what its output's name says, nor copies garbage into it (issue 20's items 1, 2, 4, 5 and 10),
/// run as a user would.
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
    func templateClash() async throws {
        let directory = try PackagePaths.temporaryDirectory("names")
        defer { try? FileManager.default.removeItem(at: directory) }
        let template = directory.path + "/%Y%m%d-%H%M%S.jpg"
        for force in [[], ["--force"]] {
            let result = try await Binary.run(["annotate", clip] + harbour(fps: "2") + ["--output", template] + force)
            #expect(result.status == 64, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "would give several frames one name (2 frames a second; it changes every second): add %n"),
                "\(result.stderr)")
            #expect(files(in: directory).isEmpty, "nothing written")
        }
        // One frame a second: every name differs, every frame is written.
        let slow = try await Binary.run(["annotate", clip] + harbour(fps: "1") + ["--output", template])
        #expect(slow.status == 0, "\(slow.stderr)")
        #expect(slow.stderr.contains("48 frames in, 48 out"), "\(slow.stderr)")
        #expect(files(in: directory).count == 48)
    }

    @Test("a URL is never a file name: refused (64) with the ffmpeg pipe that sends there, nothing written")
    func urlOutput() async throws {
        let cases = [
            ("rtsp://127.0.0.1:8554/live", "-f rtsp 'rtsp://127.0.0.1:8554/live'"),
            ("RTMP://example.org/app/key", "-f flv 'RTMP://example.org/app/key'"),
            ("srt://127.0.0.1:9000?mode=caller", "-f mpegts 'srt://127.0.0.1:9000?mode=caller'"),
            ("webrtc://host/room", "pipe --output - --format y4m into a program that speaks webrtc://"),
            ("file:///tmp/out.mjpeg", "is a URL: give the file's path (/tmp/out.mjpeg)"),
        ]
        for (url, message) in cases {
            let result = try await Binary.run(["annotate", clip] + harbour() + ["--output", url])
            #expect(result.status == 64, "\(url): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(url): \(result.stderr)")
            let scheme = String(url.prefix { $0 != "/" })
            #expect(!FileManager.default.fileExists(atPath: scheme), "\(url): nothing named '\(scheme)' was made")
        }
        let piped = try await Binary.run(["annotate", clip] + harbour() + ["--output", "rtsp://h/live"])
        #expect(
            piped.stderr.contains(
                "| ffmpeg -re -i - -c:v libx264 -tune zerolatency"), "footage is paced by ffmpeg: \(piped.stderr)")
        let overlay = try await Binary.run(
            ["annotate", clip] + harbour() + ["--overlay-only", "--output", "rtsp://h/live"])
        #expect(overlay.status == 64 && overlay.stderr.contains("is a URL: --overlay-only writes"), "\(overlay.stderr)")
    }

    @Test("photos with one EXIF time stop the run at the repeated name (73) instead of replacing each other")
    func repeatedNameAtRunTime() async throws {
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
            let result = try await Binary.run(
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
            ("out.avi", "arcapture writes a video (FILE.mp4, FILE.mov, FILE.mkv), an MJPEG stream (FILE.mjpeg)"),
            // WebM and PNG frames hold an overlay alone (--overlay-only): the message says so.
            ("out.webm", "is for an overlay alone (VP9 with alpha, PNG frames): add --overlay-only"),
            (
                "frames-%03n.png",
                "add --overlay-only; annotated footage goes in FILE.mp4, FILE.mov, FILE.mkv or frames/%05n.jpg"
            ),
            ("frames-%03n.gif", "frames are written as JPEGs, so the name should end in .jpg, not .gif"),
        ])
    func mismatchedExtension(name: String, message: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("names")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Binary.run(
            ["annotate", clip] + harbour() + ["--output", directory.appendingPathComponent(name).path])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(files(in: directory).isEmpty)
    }

    @Test("footage whose times all miss the track fails (1) instead of copying itself unannotated")
    func timesMissTheTrack() async throws {
        let directory = try PackagePaths.temporaryDirectory("miss")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.mjpeg").path
        // A year late: the first frame is after the track's end, refused before any work.
        let late = try await Binary.run(
            ["annotate", clip] + harbour(start: "2023-08-14T11:12:32Z") + ["--output", output])
        #expect(late.status == 1, "\(late.stderr)")
        #expect(
            late.stderr.contains(
                "first frame (2023-08-14T11:12:32Z) comes after the track (2022-08-14T11:12:32Z to 2022-08-14T11:12:38Z)"
            ),
            "\(late.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        // A year early: MJPEG's frame count is only an estimate, so this is found at the end.
        let early = try await Binary.run(
            ["annotate", clip] + harbour(start: "2021-08-14T11:12:32Z") + ["--output", output])
        #expect(early.status == 1, "\(early.stderr)")
        #expect(early.stderr.contains("no frame was annotated: the track gives none of the 48 frames a pose"))
        // Asked for: the frames pass through, 0.
        let asked = try await Binary.run(
            ["annotate", clip] + harbour(start: "2023-08-14T11:12:32Z") + [
                "--output", output, "--force", "--pass-through",
            ])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stderr.contains("48 frames in, 48 out (0 annotated, 48 without a pose passed through)"))
    }

    /// A folder whose .jpg files are a text file, an empty file, a PNG's start and one real photo.
    private func mixedFolder(in directory: URL) throws -> URL {
        let folder = directory.appendingPathComponent("mixed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: folder.appendingPathComponent("a.jpg"))
        try Data().write(to: folder.appendingPathComponent("b.jpg"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 200))
            .write(to: folder.appendingPathComponent("c.jpg"))
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg"),
            toPath: folder.appendingPathComponent("d.jpg").path)
        return folder
    }

    @Test("files named .jpg that are no JPEG are skipped and counted, never copied into the output")
    func garbageIsNotPassedThrough() async throws {
        let directory = try PackagePaths.temporaryDirectory("garbage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try mixedFolder(in: directory)
        let common = [
            "annotate", folder.path, "--pois", PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"),
            "--hfov", "100",
        ]
        // The frames' folder does not exist yet: a template's folders are made.
        let frames = directory.appendingPathComponent("out/%02n.jpg").path
        let files = try await Binary.run(common + ["--output", frames])
        #expect(files.status == 0, "\(files.stderr)")
        #expect(
            files.stderr.contains(
                "4 frames in, 1 out (1 annotated, 0 without a pose passed through), 3 damaged skipped"))
        for (frame, why) in [
            ("0 (a.jpg)", "JPEG too small (6 bytes)"), ("1 (b.jpg)", "JPEG too small (0 bytes)"),
            ("2 (c.jpg)", "not a JPEG (no start-of-image marker)"),
        ] {
            #expect(files.stderr.contains("frame \(frame): cannot be decoded (\(why)); skipped"), "\(files.stderr)")
        }
        #expect(self.files(in: directory.appendingPathComponent("out")) == ["01.jpg"])
        let written = try Data(contentsOf: directory.appendingPathComponent("out/01.jpg"))
        #expect(written.starts(with: [0xFF, 0xD8]) && written.count > 10_000)
        // One stream: the text is not appended to it.
        let stream = directory.appendingPathComponent("mixed.mjpeg")
        let joined = try await Binary.run(common + ["--output", stream.path])
        #expect(joined.status == 0, "\(joined.stderr)")
        let bytes = try Data(contentsOf: stream)
        #expect(bytes.starts(with: [0xFF, 0xD8]))
        // Not "PNG" alone: the photo's own scan holds those three bytes (at 45,055), which a
        // spliced frame keeps. The PNG's whole signature, and the stream is the one frame.
        let signature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(bytes.range(of: Data("hello".utf8)) == nil && bytes.range(of: signature) == nil)
        #expect(bytes == written, "the stream holds the one frame and nothing else")
    }

    @Test("a cut-off frame without a pose is skipped and counted as damaged, not passed through")
    func truncatedFrameWithoutPose() async throws {
        let directory = try PackagePaths.temporaryDirectory("garbage")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The harbour clip with its third frame cut in half.
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        let starts = whole.indices.dropLast(2).filter {
            whole[$0] == 0xFF && whole[$0 + 1] == 0xD8 && whole[$0 + 2] == 0xFF
        }
        try #require(starts.count == 48)
        let cut = whole[..<(starts[2] + (starts[3] - starts[2]) / 2)] + whole[starts[3]...]
        let damaged = directory.appendingPathComponent("damaged.mjpeg")
        try Data(cut).write(to: damaged)
        let output = directory.appendingPathComponent("out.mjpeg")
        // A year late: no frame has a pose, all pass through (asked for), the cut one does not.
        let result = try await Binary.run(
            ["annotate", damaged.path] + harbour(start: "2023-08-14T11:12:32Z") + [
                "--output", output.path, "--pass-through",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("48 frames in, 47 out (0 annotated, 47 without a pose passed through), 1 damaged"),
            "\(result.stderr)")
        #expect(result.stderr.contains("frame 2: cannot be decoded"), "\(result.stderr)")
        let written = [UInt8](try Data(contentsOf: output))
        let frames = written.indices.dropLast(2).filter {
            written[$0] == 0xFF && written[$0 + 1] == 0xD8 && written[$0 + 2] == 0xFF
        }
        #expect(frames.count == 47)
    }

    @Test("missing output folders are made; a path through a file, or an output that is a folder, is refused (73)")
    func outputFolders() async throws {
        let directory = try PackagePaths.temporaryDirectory("folders")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The frames' and the sidecar's folder, made for them (as `--output out/%03n.jpg
        // --sidecar out/frames.jsonl` needs).
        let made = try await Binary.run(
            ["annotate", clip] + harbour() + [
                "--output", directory.path + "/new/x/all.mjpeg", "--sidecar", directory.path + "/new/y/poses.jsonl",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/new/x/all.mjpeg"))
        #expect(FileManager.default.fileExists(atPath: directory.path + "/new/y/poses.jsonl"))
        // Through a file: named, before any work.
        try Data("x".utf8).write(to: directory.appendingPathComponent("file"))
        let through = try await Binary.run(
            ["annotate", clip] + harbour() + ["--output", directory.path + "/file/all.mjpeg"])
        #expect(through.status == 73, "\(through.stderr)")
        #expect(through.stderr.contains("'\(directory.path)/file' is not a folder"), "\(through.stderr)")
        #expect(!through.stderr.contains("annotate:"), "refused before any frame")
        let folder = try await Binary.run(
            ["annotate", clip] + harbour() + ["--output", directory.path + "/new", "--force"])
        #expect(folder.status == 73, "\(folder.stderr)")
        #expect(folder.stderr.contains("it is a folder"), "\(folder.stderr)")
    }
}
