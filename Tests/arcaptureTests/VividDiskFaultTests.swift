import Foundation
import TestSupport
import Testing

/// The disk and output fault matrix (Tests/VM/disk-faults.sh, in the VM suite's boot): a full file
/// system at each kind of output, a folder the user may not write, a read-only file system, a disk
/// that starts failing mid-time-lapse, and a stream reader that goes away. Each case: the exit
/// status the help documents, a message that names the fault, and only whole files left (each
/// opened by ffprobe, an independent decoder), never a temporary one.
@Suite("disk and output faults on vivid in a VM", .serialized, .timeLimit(.minutes(40)), .bootsVividVM)
struct VividDiskFaultTests {
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var status: Int32
        var message: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "full-stream", status: 74, message: "cannot write to standard output: the disk is full"),
        Case(name: "full-log", status: 74, message: "cannot write '/tmp/small/log.jsonl': the disk is full"),
        Case(name: "full-stream-to", status: 73, message: "cannot write '/tmp/small/check.yuyv': the disk is full"),
        Case(
            name: "full-footage-frames", status: 74, message: ".jpg': the disk is full (no partial file is left)"),
        Case(name: "full-footage-mjpeg", status: 74, message: "cannot write '/tmp/small/out.mjpeg': the disk is full"),
        Case(
            name: "full-footage-sidecar", status: 74,
            message: "cannot write '/tmp/small/frames.jsonl': the disk is full"
        ),
        Case(name: "locked-folder", status: 73, message: "cannot create the file (Permission denied)"),
        Case(name: "locked-footage", status: 73, message: "cannot create the file (Permission denied)"),
        Case(name: "read-only", status: 73, message: "cannot create the file (Read-only file system)"),
        // Whichever call meets the failing disk first (a write, or a flush before or after the
        // rename: it depends on the guest's speed), the fault is named the same way.
        Case(name: "io-error", status: 74, message: "an I/O error (EIO): the disk or card failed to store it"),
        Case(name: "full-disk", status: 74, message: ".jpg': the disk is full (no partial file is left)"),
        Case(name: "reader-gone", status: 0, message: "the program reading the stream closed it"),
        Case(name: "reader-gone-footage", status: 0, message: "the program reading the stream closed it after"),
    ]

    func vm() async throws -> VividVM { try await VividVM.shared.value }

    /// The names of the files a case left in its faulty folder.
    func listing(_ vm: VividVM, _ name: String) throws -> [String] {
        String(decoding: try vm.file("disk-\(name).files"), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The files a case left (copied out of the guest), by name.
    func leftFiles(_ vm: VividVM, _ name: String) -> [URL] {
        let folder = vm.directory.appendingPathComponent("disk-\(name)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test("the documented status and a message naming the fault", arguments: cases)
    func statusAndMessage(_ fault: Case) async throws {
        let run = try await vm().scenario("disk-\(fault.name)")
        #expect(run.status == fault.status, "\(run.stderr)")
        #expect(run.stderr.contains(fault.message), "\(run.stderr)")
        #expect(!run.stderr.contains("NSCocoaErrorDomain") && !run.stderr.contains("could not be completed"))
    }

    @Test("no temporary file is left, whatever the fault", arguments: cases.filter { !$0.name.hasPrefix("reader") })
    func noTemporaryFile(_ fault: Case) async throws {
        let names = try listing(try await vm(), fault.name)
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
    }

    @Test("single-file outputs are left whole or not at all: never a part of one")
    func singleFiles() async throws {
        let vm = try await vm()
        #expect(!(try listing(vm, "full-stream-to")).contains("check.yuyv"))
        #expect(!(try listing(vm, "full-footage-mjpeg")).contains("out.mjpeg"))
        #expect(!(try listing(vm, "full-footage-sidecar")).contains("frames.jsonl"))
    }

    @Test(
        "frames written before the fault are whole JPEGs of the right size",
        arguments: [
            ("full-log", "log-", 1, "320,180"), ("full-footage-frames", "", 1, "960,400"),
            ("full-footage-sidecar", "", 1, "960,400"), ("io-error", "eio-", 3, "640,480"),
            ("full-disk", "tl-", 20, "640,480"),
        ])
    func framesBeforeTheFault(name: String, prefix: String, atLeast: Int, size: String) async throws {
        let vm = try await vm()
        let frames = leftFiles(vm, name).filter { $0.lastPathComponent.hasPrefix(prefix) && $0.pathExtension == "jpg" }
        #expect(frames.count >= atLeast, "\(frames.map(\.lastPathComponent))")
        for frame in frames {
            let fields = try await VividCaptureTests.probe([frame.path])
            #expect(fields.prefix(2).joined(separator: ",") == size, "\(frame.lastPathComponent)")
        }
    }

    @Test("before the camera opens or a frame is drawn, an output that cannot be created is said")
    func refusedUpFront() async throws {
        let vm = try await vm()
        for name in ["locked-folder", "read-only"] {
            let run = try vm.scenario("disk-\(name)")
            #expect(!run.stderr.contains("running:"), "\(name) opened the camera first: \(run.stderr)")
        }
        let footage = try vm.scenario("disk-locked-footage")
        #expect(!footage.stderr.contains("frames in"), "\(footage.stderr)")
    }

    @Test(
        "a disk that failed or filled mid-time-lapse holds a clean file system afterwards (e2fsck)",
        arguments: ["io-error", "full-disk"])
    func fileSystemAfterTheFault(_ name: String) async throws {
        let vm = try await vm()
        let image = vm.directory.appendingPathComponent("disk-\(name).img")
        // In sbin, which a normal user's PATH lacks.
        let e2fsck = try #require(
            ["/usr/sbin/e2fsck", "/sbin/e2fsck"].first(where: FileManager.default.isExecutableFile),
            "e2fsck is missing: run 'bash scripts/install-deps'")
        let check = try await ProcessRunner.run(executable: e2fsck, arguments: ["-f", "-n", image.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test("a stream cut by a full disk holds whole frames up to the fault")
    func streamBeforeTheFault() async throws {
        let vm = try await vm()
        let stream = try #require(leftFiles(vm, "full-stream").first { $0.lastPathComponent == "stream.mjpeg" })
        let result = try await ProcessRunner.run(
            tool: "ffprobe",
            ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", stream.path],
            install: "bash scripts/install-deps")
        #expect((Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 2)
    }
}
