import Foundation
import TestSupport
import Testing

/// `arcapture capture` against vivid in the VM (the scenarios are in Tests/VM/guest-suite.sh, in the
/// same boot as the smoke-test scenarios). Files and streams are checked with ffprobe, an
/// independent reader.
@Suite("capture on vivid in a VM", .serialized, .timeLimit(.minutes(40)), .bootsVividVM)
struct VividCaptureTests {
    func vm() async throws -> VividVM { try await VividVM.shared.value }

    /// ffprobe's view of a file or of bytes fed on stdin: width, height, pixel format, frames read.
    static func probe(_ arguments: [String], input: URL? = nil) async throws -> [String] {
        let result = try await ProcessRunner.run(
            tool: "ffprobe",
            [
                "-v", "error", "-count_frames", "-show_entries", "stream=width,height,pix_fmt,nb_read_frames", "-of",
                "csv=p=0",
            ]
                + arguments, install: "bash scripts/install-deps", input: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "ffprobe complained: \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
    }

    /// The exit status and stderr of a scenario whose stdout was a stream.
    static func streamRun(_ vm: some GuestResults, _ name: String) throws -> (status: String, stderr: String) {
        (
            String(decoding: try vm.file("\(name).rc"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
            String(decoding: try vm.file("\(name).err"), as: UTF8.self)
        )
    }

    static func lines(_ vm: VividVM, _ name: String) throws -> [[String: Any]] {
        String(decoding: try vm.file(name), as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test(
        "stills at two sizes settle first and are JPEGs of the requested size",
        arguments: [("still-vga", "640,480"), ("still-hd", "1280,720")])
    func stills(name: String, size: String) async throws {
        let vm = try await vm()
        let run = try vm.scenario(name)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "\(name).jpg\n")
        #expect(run.stderr.contains("captured 1 frame"))
        #expect(run.stderr.contains("skipped while the camera settled"))
        let fields = try await Self.probe([vm.directory.appendingPathComponent("capture/\(name).jpg").path])
        #expect(fields.prefix(3).joined(separator: ",") == "\(size),yuvj422p")
    }

    @Test("a time-lapse writes one frame per interval, chosen by the frames' timestamps")
    func timeLapse() async throws {
        let vm = try await vm()
        let run = try vm.scenario("lapse")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.split(separator: "\n") == [
                "lapse-001.jpg", "lapse-002.jpg", "lapse-003.jpg", "lapse-004.jpg", "lapse-005.jpg", "lapse-006.jpg",
            ])
        let records = try Self.lines(vm, "capture/lapse.jsonl")
        #expect(records.count == 6)
        let times = records.compactMap { $0["timestamp_ns"] as? Int }
        let drops = records.compactMap { $0["dropped"] as? Int }
        #expect(times.count == 6 && drops.count == 6)
        // Each written frame is the first to arrive at or after its slot (start + k·200 ms): never
        // before it, and later only by the time to the next frame that arrived, one frame time (40 ms
        // at 25 fps, plus the driver's jitter) for each frame lost on the way. The emulated guest does
        // lose frames when the host is busy; the log counts them. A slot missed entirely (a stall
        // longer than the interval) is not made up, so slots are found from the times, and each holds
        // one frame.
        let start = try #require(times.first)
        var slots: [Int] = []
        for (index, (time, dropped)) in zip(times, drops).enumerated() {
            let slot = (time - start) / 200_000_000
            slots.append(slot)
            let late = Double(time - start - slot * 200_000_000) / 1e6
            let bound = Double(1 + dropped) * 40 + 20
            #expect(late < bound, "frame \(index) is \(late) ms after its slot, with \(dropped) lost before it")
        }
        #expect(slots == slots.sorted() && Set(slots).count == 6, "one frame per slot: \(slots)")
        #expect(slots.first == 0)
        #expect(
            records.allSatisfy { ($0["file"] as? String)?.hasPrefix("lapse-") == true && $0["width"] as? Int == 640 })
    }

    @Test("--output - is an MJPEG stream ffprobe reads to the last frame; Y4M likewise")
    func streams() async throws {
        let vm = try await vm()
        #expect(try Self.streamRun(vm, "stream").status == "0")
        // Piped in, as `arcapture capture --output - | ffprobe -f mjpeg -i -` would.
        let mjpeg = try await Self.probe(
            ["-f", "mjpeg", "-i", "pipe:0"], input: vm.directory.appendingPathComponent("stream.mjpg"))
        #expect(mjpeg == ["320", "180", "yuvj422p", "45"])
        #expect(try Self.lines(vm, "capture/stream.jsonl").count == 45)
        #expect(try Self.streamRun(vm, "y4m").status == "0")
        let y4m = try await Self.probe(
            ["-f", "yuv4mpegpipe", "-i", "pipe:0"], input: vm.directory.appendingPathComponent("stream.y4m"))
        #expect(y4m == ["320", "180", "yuv422p", "12"])
    }

    @Test("controls are set by percentage, number and menu name, and read back by v4l2-ctl")
    func controls() async throws {
        let vm = try await vm()
        #expect(try vm.scenario("controls").status == 0)
        let readback = String(decoding: try vm.file("controls.readback"), as: UTF8.self)
        #expect(readback.contains("brightness: 153"))
        #expect(readback.contains("contrast: 10"))
        #expect(readback.contains("test_pattern: 12 (1x1 Checkers)"))
        let bad = try vm.scenario("control-bad")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("brightness must be 0 to 255, not 300"))
    }

    @Test("Ctrl-C during capture leaves only whole files and exits 130")
    func interrupt() async throws {
        let vm = try await vm()
        let run = try vm.scenario("capture-int")
        #expect(run.status == 130)
        let files = String(decoding: try vm.file("capture-int.files"), as: UTF8.self).split(separator: "\n")
        let frames = files.filter { $0.hasPrefix("int-") }
        #expect(frames.count >= 5, "Ctrl-C came after the fifth file appeared")
        #expect(!files.contains { $0.hasPrefix(".int-") }, "no temporary file is left")
        for name in frames.prefix(60) {
            let fields = try await Self.probe([vm.directory.appendingPathComponent("capture/\(name)").path])
            #expect(fields.prefix(2) == ["640", "480"], "\(name) is whole")
        }
    }

    @Test("a full disk ends capture with 74 and a clear message; the files before it are whole")
    func fullDisk() async throws {
        let vm = try await vm()
        let run = try vm.scenario("full")
        #expect(run.status == 74)
        #expect(run.stderr.contains("the disk is full"))
        let files = String(decoding: try vm.file("full.files"), as: UTF8.self).split(separator: "\n")
        let written = files.filter { $0.hasPrefix("full-") }
        #expect(!written.isEmpty && written.count < 100)
        #expect(!files.contains { $0.hasPrefix(".full-") }, "no temporary file is left")
        for name in written {
            await #expect(
                try Self.probe([vm.directory.appendingPathComponent("full/\(name)").path]).prefix(2) == ["640", "480"])
        }
    }

    @Test("an unplug without --reconnect ends capture with 69")
    func unplug() async throws {
        let run = try await vm().scenario("unplug-capture")
        #expect(run.status == 69)
        #expect(run.stderr.contains("was disconnected while streaming"))
        let written = run.stdout.split(separator: "\n")
        #expect(written.count >= 3 && written.count < 5000, "it stopped at the unplug")
    }

    @Test("with --reconnect capture waits for the camera, resumes, and logs the gap")
    func reconnect() async throws {
        let vm = try await vm()
        let (status, stderr) = try Self.streamRun(vm, "reconnect")
        #expect(status == "0", "\(stderr)")
        #expect(stderr.contains("waiting for the camera to come back"))
        #expect(stderr.contains("the camera is back after"))
        let records = try Self.lines(vm, "capture/reconnect.jsonl")
        #expect(records.contains { $0["event"] as? String == "interrupted" })
        let resumed = try #require(records.first { $0["event"] as? String == "resumed" })
        #expect((resumed["gap_s"] as? Double ?? 0) > 0.5)
        #expect(records.filter { $0["file"] != nil }.count == 150)
        let stream = try await Self.probe(["-f", "mjpeg", vm.directory.appendingPathComponent("reconnect.mjpg").path])
        #expect(stream.last == "150")
    }

    @Test(
        "SIGUSR1 switches to the next camera without ending the stream, closing the first while the view runs on the second"
    )
    func cameraSwitch() async throws {
        let vm = try await vm()
        let (status, stderr) = try Self.streamRun(vm, "switch")
        #expect(status == "130", "ended by Ctrl-C: \(stderr)")
        // Read in the guest from /proc: the process's descriptors and mapped buffers.
        let nodes = String(decoding: try vm.file("switch-nodes.txt"), as: UTF8.self)
        #expect(
            nodes == "before: /dev/video0 held\nafter: /dev/video1 held, /dev/video0 released\n",
            "the view's switch released the first camera while it ran: \(nodes)")
        let records = try Self.lines(vm, "capture/switch.jsonl")
        let switchedAt = try #require(records.firstIndex { $0["event"] as? String == "switched" })
        #expect(records[switchedAt]["device"] as? String == "/dev/video1")
        let frames = records.filter { $0["event"] == nil }
        let devices = frames.compactMap { $0["device"] as? String }
        #expect(devices.count == frames.count)
        // One stream: the first camera's frames (a few may still be on the way when the switch is
        // logged), then the second camera's, never back. Each camera counts its own frames, in
        // order; the emulated guest may lose some of them when the host is busy, so gaps are allowed.
        let firstCount = devices.prefix { $0 == "/dev/video0" }.count
        #expect(firstCount >= 20, "the switch came after 20 frames were logged")
        #expect(devices[firstCount...].allSatisfy { $0 == "/dev/video1" }, "\(devices)")
        #expect(devices.count - firstCount >= 20, "20 frames from the second camera before Ctrl-C")
        for camera in ["/dev/video0", "/dev/video1"] {
            let sequences = frames.filter { $0["device"] as? String == camera }.compactMap { $0["sequence"] as? Int }
            #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "\(camera): \(sequences)")
        }
        await #expect(
            try Self.probe(["-f", "mjpeg", vm.directory.appendingPathComponent("switch.mjpg").path]).last
                == "\(frames.count)", "every logged frame is in the stream, whole")
    }
}
