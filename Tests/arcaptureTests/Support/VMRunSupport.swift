import Foundation
import TestSupport

/// What every boot of a test VM does on the host besides its own scenarios: the crash reporter in
/// the payload, and the guest's coverage counters added to this run's afterwards.
enum VMRunSupport {
    /// The payload and out folders of a boot, in the products folder under `name`, emptied first:
    /// one folder per checkout, so the last run's files stay there to look at, and no run finds
    /// another's.
    static func freshRun(_ name: String) throws -> (payload: URL, out: URL) {
        let work = Binary.productsDirectory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: work)
        let payload = work.appendingPathComponent("payload")
        let out = work.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: payload, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        return (payload, out)
    }

    /// Writes the harbour footage's first six frames to `destination` (cut by ffmpeg, copied, not
    /// re-encoded): a short clip for the scenarios that play footage.
    static func cutHarbourClip(to destination: URL) throws {
        let clip = try ProcessRunner.runBlocking(
            tool: "ffmpeg",
            [
                "-loglevel", "error", "-f", "mjpeg", "-i", PackagePaths.sample("footage/harbour.mjpeg"), "-frames:v",
                "6", "-c", "copy", "-f", "mjpeg", destination.path,
            ], install: "bash scripts/install-deps")
        guard clip.status == 0 else {
            throw VividVM.Unavailable(description: "ffmpeg could not cut the clip: \(clip.stderr)")
        }
    }

    /// Copies the toolchain's crash reporter into `payload`, so a crash in the guest leaves a
    /// backtrace in the run's stderr (guest-lib.sh turns it on when it is there).
    static func addCrashReporter(to payload: URL) throws {
        let toolchain = try Binary.runBlocking(
            executable: "/usr/bin/env", arguments: ["sh", "-c", "dirname \"$(readlink -f \"$(command -v swift)\")\""])
        let backtracer = URL(fileURLWithPath: toolchain.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            .appendingPathComponent("../libexec/swift/linux/swift-backtrace-static").standardized
        if toolchain.status == 0, FileManager.default.isExecutableFile(atPath: backtracer.path) {
            try FileManager.default.copyItem(at: backtracer, to: payload.appendingPathComponent("swift-backtrace"))
        }
    }

    /// Adds the guest runs' coverage counters to this test run's, when it is measuring coverage
    /// (`swift test --enable-code-coverage` merges every profile in the products' codecov folder), so
    /// the report counts the code only the real driver exercises.
    ///
    /// The guest's process IDs are the same on every boot, so its profiles' names repeat from run to
    /// run: the previous run's of the same VM (`prefix`) are removed first (they counted a binary
    /// that may since have changed), and this run's are copied under names of their own.
    static func collectCoverage(from profiles: URL, prefix: String) throws {
        let fileManager = FileManager.default
        let codecov = Binary.productsDirectory.appendingPathComponent("codecov")
        guard fileManager.fileExists(atPath: codecov.path),
            let files = try? fileManager.contentsOfDirectory(atPath: profiles.path)
        else { return }
        for stale in (try? fileManager.contentsOfDirectory(atPath: codecov.path)) ?? []
        where stale.hasPrefix("\(prefix)-") && stale.hasSuffix(".profraw") {
            try? fileManager.removeItem(at: codecov.appendingPathComponent(stale))
        }
        let boot = UUID().uuidString.prefix(8)
        for file in files where file.hasSuffix(".profraw") {
            let target = codecov.appendingPathComponent("\(prefix)-\(boot)-\(file)")
            try? fileManager.removeItem(at: target)
            try fileManager.copyItem(at: profiles.appendingPathComponent(file), to: target)
        }
    }
}
