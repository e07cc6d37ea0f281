import Foundation
import TestSupport
import Testing

@testable import ArcaptureCLI

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP at random moments of a footage run, as a user, a service
/// manager or a closed SSH session sends them: whenever the signal lands, the run ends with a
/// documented status and leaves only whole files (each decoded by ffmpeg, an independent decoder),
/// never a temporary one.
///
/// The moments are spread over the time one whole run takes on this machine, measured first, so
/// the test means the same on a fast machine and a slow one.
@Suite("signals at random moments (footage)", .serialized)
struct SignalMomentTests {
    static let frames = 120

    /// Where a run writes: numbered frames, or one MJPEG file (committed with the frames before the
    /// signal).
    enum Output: String, CaseIterable, CustomStringConvertible, Sendable {
        case frames, mjpegFile
        var description: String { rawValue }
    }

    /// How a run ended.
    enum Ending: Equatable {
        case exited(Int32)
        /// Killed by the signal itself: it landed before the handlers were installed.
        case signalled(Int32)
    }

    static func arguments(clip: String, output: String) -> [String] {
        [
            "annotate", clip, "--pois", PackagePaths.sample("pois/geonames_places_near_datasets.geojson"), "--hfov",
            "70", "--position", "45.2735,13.7142,300", "--orientation", "90,0,0", "--max-distance", "20000", "--output",
            output,
        ]
    }

    /// Starts the binary, sends `signal` after `delay` seconds (unless it has ended), and waits.
    static func run(_ arguments: [String], signal: Int32?, after delay: Double) throws -> (Ending, Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Coverage counters of these many short runs are not wanted in the suite's report.
        process.environment = ProcessInfo.processInfo.environment.merging(["LLVM_PROFILE_FILE": "/dev/null"]) { $1 }
        let started = Date()
        try process.run()
        if let signal {
            Thread.sleep(forTimeInterval: delay)
            if process.isRunning { kill(process.processIdentifier, signal) }
        }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(started)
        switch process.terminationReason {
        case .uncaughtSignal: return (.signalled(process.terminationStatus), seconds)
        default: return (.exited(process.terminationStatus), seconds)
        }
    }

    /// How many frames ffmpeg decodes from `input` (an image sequence or an MJPEG file), and what it
    /// complained of.
    static func decode(_ input: [String]) async throws -> (frames: Int, complaints: String) {
        let result = try await ProcessRunner.run(
            tool: "ffprobe",
            ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0"] + input,
            install: "bash scripts/install-deps")
        return (Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1, result.stderr)
    }

    @Test(
        "SIGINT, SIGTERM and SIGHUP at random moments: 130 or done, only whole files, no temporary one",
        arguments: Output.allCases)
    func randomMoments(_ output: Output) async throws {
        let directory = try PackagePaths.temporaryDirectory("signals")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        let made = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-loop", "1", "-i", PackagePaths.sample("frames/lund-640x480.jpg"), "-vf",
                "crop=640:360:0:'mod(n,120)'", "-frames:v", String(Self.frames), "-q:v", "3", "-f", "mjpeg", "-y", clip,
            ], install: "bash scripts/install-deps")
        #expect(made.status == 0, "\(made.stderr)")

        func target(_ run: Int) throws -> (folder: URL, output: String) {
            let folder = directory.appendingPathComponent("run-\(run)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let name = output == .frames ? "%03n.jpg" : "out.mjpeg"
            return (folder, folder.appendingPathComponent(name).path)
        }
        // One whole run first: how long the moments may be spread over.
        let whole = try target(0)
        let (ending, seconds) = try Self.run(Self.arguments(clip: clip, output: whole.output), signal: nil, after: 0)
        #expect(ending == .exited(0))

        var interrupted = 0
        for run in 1...12 {
            let place = try target(run)
            let signal = [SIGINT, SIGTERM, SIGHUP][run % 3]
            let delay = Double.random(in: 0..<seconds)
            let (ending, _) = try Self.run(
                Self.arguments(clip: clip, output: place.output), signal: signal, after: delay)
            let names = try FileManager.default.contentsOfDirectory(atPath: place.folder.path).sorted()
            let context =
                "run \(run): signal \(signal) after \(String(format: "%.3f", delay)) s, \(ending), \(names.count) files"
            #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(context): a temporary file is left")
            switch ending {
            case .exited(130): interrupted += 1
            case .exited(0): break
            case .signalled(let number):
                // Before the handlers are installed (the first instant of the process): nothing written.
                #expect(number == signal && names.isEmpty, "\(context)")
            case .exited(let status): Issue.record("\(context): status \(status)")
            }
            guard !names.isEmpty else { continue }
            switch output {
            case .frames:
                #expect(names == (1...names.count).map { String(format: "%03d.jpg", $0) }, "\(context): \(names)")
                let decoded = try await Self.decode([
                    "-f", "image2", "-i", place.folder.appendingPathComponent("%03d.jpg").path,
                ])
                #expect(decoded.frames == names.count && decoded.complaints.isEmpty, "\(context): \(decoded)")
            case .mjpegFile:
                // A stopped run's file under its partial name, a finished one's under its own. A
                // signal that lands after the run committed its file, as the process exits, still
                // gives 130 (the process's default for it), but the file is then whole: the name
                // never claims frames that are not there.
                let name = names.first ?? ""
                #expect(names == ["out.mjpeg"] || names == ["out.partial.mjpeg"], "\(context)")
                if ending == .exited(0) { #expect(name == "out.mjpeg", "\(context)") }
                let decoded = try await Self.decode([
                    "-f", "mjpeg", "-i", place.folder.appendingPathComponent(name).path,
                ])
                #expect(decoded.frames > 0 && decoded.complaints.isEmpty, "\(context): \(decoded)")
                if name == "out.mjpeg" { #expect(decoded.frames == Self.frames, "\(context)") }
            }
        }
        // Moments spread over a whole run's time land inside most runs; none landing in any of
        // twelve would mean the signals are not reaching the run.
        #expect(interrupted > 0)
    }

    @Test(
        "each stopping signal once frames are written, input still open: 130, the frames whole",
        arguments: [SIGINT, SIGTERM, SIGHUP])
    func stopsOnSignal(_ signal: Int32) async throws {
        let directory = try PackagePaths.temporaryDirectory("signal-\(signal)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.mjpeg").path
        try #require(mkfifo(input, 0o600) == 0)
        let folder = directory.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = Self.arguments(clip: input, output: folder.appendingPathComponent("%03n.jpg").path)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.environment = ProcessInfo.processInfo.environment.merging(["LLVM_PROFILE_FILE": "/dev/null"]) { $1 }
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Both ends, so arcapture's open for reading returns at once; non-blocking, so a run that
        // ended early cannot leave the test blocked on a full pipe.
        let writer = open(input, O_RDWR | O_NONBLOCK)
        try #require(writer >= 0)
        defer { close(writer) }
        let frame = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("frames/lund-640x480.jpg")))
        let deadline = Date().addingTimeInterval(3600)
        for _ in 0..<3 {
            var offset = 0
            while offset < frame.count && process.isRunning && Date() < deadline {
                let written = frame.withUnsafeBytes { bytes in
                    bytes.baseAddress.map { write(writer, $0 + offset, bytes.count - offset) } ?? -1
                }
                if written > 0 { offset += written } else { usleep(10_000) }
            }
            try #require(offset == frame.count, "arcapture stopped reading its input")
        }
        // The input stays open: the run waits for more, with frames already written.
        let first = folder.appendingPathComponent("001.jpg").path
        while !FileManager.default.fileExists(atPath: first) && process.isRunning && Date() < deadline {
            usleep(10_000)
        }
        try #require(FileManager.default.fileExists(atPath: first), "no frame was written")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
        #expect(names == (1...names.count).map { String(format: "%03d.jpg", $0) }, "\(names)")
        let decoded = try await Self.decode(["-f", "image2", "-i", folder.appendingPathComponent("%03d.jpg").path])
        #expect(decoded.frames == names.count && decoded.complaints.isEmpty, "\(decoded)")
    }

    @Test(
        "a stop while the output pipe has no reader ends the run (130), saying nothing was written",
        arguments: [SIGINT, SIGTERM, SIGHUP])
    func stopsWaitingForReader(_ signal: Int32) async throws {
        let directory = try PackagePaths.temporaryDirectory("no-reader-\(signal)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pipe = directory.appendingPathComponent("out.mjpeg").path
        try #require(mkfifo(pipe, 0o600) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = Self.arguments(clip: PackagePaths.sample("footage/harbour.mjpeg"), output: pipe)
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = StreamText(errors.fileHandleForReading)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // Signalled once it says it waits for a reader, which it says with its handlers in place:
        // before this change the open(2) it waited in never returned, whatever the signal.
        let waiting = await OffPool.wait(seconds: 600) {
            said.value.contains("is a named pipe: writing starts when a reader opens it")
        }
        try #require(waiting, "\(said.value)")
        kill(process.processIdentifier, signal)
        let ended = await OffPool.wait(seconds: 600) { !process.isRunning }
        try #require(ended, "still waiting after the signal: \(said.value)")
        // Ended: this returns at once, and lets Foundation release what watched the process
        // (without it, LeakSanitizer found the Process and its pipe still held at the suite's end).
        process.waitUntilExit()
        _ = said.finish()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(said.value)")
        #expect(
            said.value.contains(
                "error: cannot write '\(pipe)': stopped while waiting for a reader to open the pipe; nothing was written"
            ), "\(said.value)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.mjpeg"], "no temporary file")
    }
}
