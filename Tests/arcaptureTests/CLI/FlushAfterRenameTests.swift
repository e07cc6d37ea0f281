import Foundation
import TestSupport
import Testing

/// An output's last flush, after the rename that gives it its name, fails (a card that starts
/// failing, a network file system that loses the server): the run says so and does not exit 0,
/// since what a power cut would leave is unknown (issue 43, item 2). The fault is injected with an
/// `LD_PRELOAD` library whose `fsync` says EIO for folders only, so every flush before the rename
/// works and the one of the folder, which makes the new name durable, fails; the binary is the
/// built one, run as a user would.
@Suite("arcapture: a failed flush after the rename")
struct FlushAfterRenameTests {
    static let shim = """
        #define _GNU_SOURCE
        #include <errno.h>
        #include <sys/stat.h>
        #include <sys/syscall.h>
        #include <unistd.h>

        /* fsync(2) of a folder fails as a dying disk's would; files are flushed for real. */
        int fsync(int fd) {
            struct stat info;
            if (fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
                errno = EIO;
                return -1;
            }
            return (int)syscall(SYS_fsync, fd);
        }
        """

    @Test("annotate: the output is there, and the run says its folder's flush failed (74), never 0")
    func annotateOutput() async throws {
        let directory = try PackagePaths.temporaryDirectory("flush-after-rename")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("failing-folder-fsync.c").path
        let library = directory.appendingPathComponent("failing-folder-fsync.so").path
        try Self.shim.write(toFile: source, atomically: true, encoding: .utf8)
        let built = try await ProcessRunner.run(
            tool: "cc", ["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", library, source],
            install: "apt-get install gcc")
        #expect(built.status == 0, "\(built.stderr)")
        let output = directory.appendingPathComponent("out.mjpeg").path
        let arguments =
            [
                "annotate", PackagePaths.sample("footage/harbour.mjpeg"), "--track",
                PackagePaths.sample("footage/harbour.gpx"), "--output", output,
            ] + AnnotateBatchTests.common
        // The sanitizer builds of the suite want their runtime first among the libraries; the shim
        // defines nothing they intercept.
        let asan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        let environment = ["LD_PRELOAD": library, "ASAN_OPTIONS": asan + "verify_asan_link_order=0"]
        let run = try await Binary.run(arguments, environment: environment)
        #expect(run.status == 74, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "cannot write '\(output)': flushing it to the disk under its name failed: an I/O error (EIO): "
                    + "the disk or card failed to store it (fsync); the file is there, but may not survive a power cut"),
            "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: output), "the output is left: it may be all there is")

        // Without the shim, the same run ends well: the failure above is the injected one.
        try FileManager.default.removeItem(atPath: output)
        let clean = try await Binary.run(arguments)
        #expect(clean.status == 0, "\(clean.stderr)")
    }
}
