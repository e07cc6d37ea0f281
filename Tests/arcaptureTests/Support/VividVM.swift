import Foundation
import TestSupport

/// One boot of the vivid VM running Tests/VM/guest-suite.sh with the freshly built binary, shared
/// by every test in ``VividVMTests`` (booting once keeps the suite to about half a minute).
struct VividVM: GuestResults {
    /// The guest's /out, as the host sees it.
    let directory: URL
    /// The frame the loop scenario feeds into vivid's output node.
    let pattern: [UInt8]
    /// Host wall time of the whole VM run, in seconds.
    let wallSeconds: Double

    /// The run, started when the test run is planned (``VMBootTrait``) or by the first test that
    /// reads it, on a thread of its own (a boot takes minutes, and would hold one of the
    /// cooperative pool's two threads all that time). It runs beside the v4l2loopback VM's: each
    /// guest then sees the other's load as a slower camera, which the suites' assertions allow (they
    /// hold at any speed).
    static let shared = Task<VividVM, any Error> { try await OffPool.run { try VividVM.boot() } }

    /// The loop scenario's frame: 640x480 YUYV, deterministic pseudo-random bytes (an LCG), so
    /// that any reordering or corruption on the way through the driver changes the bytes.
    static func makePattern() -> [UInt8] {
        var state: UInt32 = 0x2545_F491
        return (0..<(640 * 480 * 2)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    private static func boot() throws -> VividVM {
        let fileManager = FileManager.default
        guard fileManager.isExecutableFile(atPath: Binary.path) else {
            throw Unavailable(description: "the built binary is missing at \(Binary.path)")
        }
        let which = try Binary.runBlocking(
            executable: "/usr/bin/env", arguments: ["sh", "-c", "command -v qemu-system-x86_64"])
        guard which.status == 0 else {
            throw Unavailable(
                description: "QEMU is not installed: run 'bash scripts/install-deps' (the VM suite never skips)")
        }
        let (payload, out) = try VMRunSupport.freshRun("vivid-vm-run")
        let vmDirectory = Binary.packageRoot.appendingPathComponent("Tests/VM")
        try fileManager.copyItem(atPath: Binary.path, toPath: payload.appendingPathComponent("arcapture").path)
        for script in ["guest-suite.sh", "guest-lib.sh", "unplug-stress.sh", "disk-faults.sh", "signal-stress.sh"] {
            try fileManager.copyItem(
                at: vmDirectory.appendingPathComponent(script), to: payload.appendingPathComponent(script))
        }
        try addDiskFaultFiles(to: payload)
        let pattern = makePattern()
        try Data(pattern).write(to: payload.appendingPathComponent("pattern-640x480.yuyv"))
        try VMRunSupport.addCrashReporter(to: payload)

        // A real gpsd for the live annotation scenario, on the host's loopback (the guest's
        // 10.0.2.2), and the POIs it draws: ahead of the boat whose log gpsfake replays.
        let gpsd = try GPSFake(log: PackagePaths.sample("nmea/bundg_zeus_9.log"))
        defer { gpsd.stop() }
        try Data(String(gpsd.port).utf8).write(to: payload.appendingPathComponent("gpsd-port"))
        try Data(Self.boatPOIs.utf8).write(to: payload.appendingPathComponent("e2e-pois.geojson"))
        let controller = GPSDController(gpsd: gpsd, log: PackagePaths.sample("nmea/bundg_zeus_9.log"), out: out)
        controller.start()
        defer { controller.finish() }
        // The browser on the host reaches the guest's server through a forwarded loopback port.
        let browser = BrowserController(port: try GPSFake.freePort(), out: out)
        browser.start()
        defer { browser.finish() }

        let started = Date()
        // Thirty-nine minutes at most (the suites' limit is forty): a bound only a hang reaches, as
        // the guest takes about eight on a quiet 2-core host and twice that with the host loaded
        // (nineteen was the bound until the loopback VM's like bound was seen overrun by a healthy
        // guest on a loaded host); a scenario that hangs fails its own waits first.
        let result = try ProcessRunner.runBlocking(
            executable: "/bin/bash",
            arguments: [
                vmDirectory.appendingPathComponent("vivid-vm.sh").path, payload.path, out.path, "guest-suite.sh",
            ], environment: ["ARCAPTURE_VM_TIMEOUT": "2340", "ARCAPTURE_VM_FORWARD": String(browser.port)])
        let wall = Date().timeIntervalSince(started)
        FileHandle.standardError.write(
            Data("vivid VM suite: guest scenarios ran in \(String(format: "%.1f", wall)) s wall time\n".utf8))
        guard result.status == 0 else {
            let console = (try? String(contentsOf: out.appendingPathComponent("vm-console.log"), encoding: .utf8)) ?? ""
            throw Unavailable(
                description:
                    "the VM failed with status \(result.status): \(result.stderr)\nconsole:\n\(console.suffix(3000))")
        }
        try VMRunSupport.collectCoverage(from: out.appendingPathComponent("profiles"), prefix: "vivid-vm")
        return VividVM(directory: out, pattern: pattern, wallSeconds: wall)
    }

    /// What disk-faults.sh needs besides the binary: dmsetup (from the host, with its libraries), an
    /// empty 3 MB ext4 image (busybox's mke2fs makes only ext2), the first six frames of the
    /// sample clip and the sample POIs.
    private static func addDiskFaultFiles(to payload: URL) throws {
        func sbin(_ tool: String) throws -> String {
            let found = ["/usr/sbin/\(tool)", "/sbin/\(tool)"].first(where: FileManager.default.isExecutableFile)
            guard let found else {
                throw Unavailable(description: "\(tool) is not installed: run 'bash scripts/install-deps'")
            }
            return found
        }
        try FileManager.default.copyItem(
            atPath: try sbin("dmsetup"), toPath: payload.appendingPathComponent("dmsetup").path)
        let image = payload.appendingPathComponent("full-ext4.img")
        // 3 MB: about forty 640x480 frames fill it (1.8 MB free after the journal), each flushed
        // with its journal commit, which costs the emulated guest a quarter of a second to half
        // of one.
        try Data(count: 3 << 20).write(to: image)
        let format = try ProcessRunner.runBlocking(
            executable: try sbin("mkfs.ext4"), arguments: ["-q", "-F", image.path])
        guard format.status == 0 else { throw Unavailable(description: "mkfs.ext4 failed: \(format.stderr)") }
        try VMRunSupport.cutHarbourClip(to: payload.appendingPathComponent("clip.mjpeg"))
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"),
            toPath: payload.appendingPathComponent("pois.geojson").path)
    }

    /// Five POIs 150–400 m south-west of the boat's first fix (52.850155 N, 5.313617 E), where its
    /// camera looks (`--orientation 230,0,0`), on the ground.
    static let boatPOIs: String = {
        let features = (0..<5).map { index -> String in
            let bearing = (230.0 + Double(index - 2) * 6) * .pi / 180
            let distance = 150.0 + Double(index) * 60
            let latitude = 52.850155 + distance * cos(bearing) / 111_250
            let longitude = 5.313617 + distance * sin(bearing) / (111_320 * cos(52.850155 * .pi / 180))
            return """
                {"type": "Feature", "id": "p\(index)", "properties": {"name": "Buoy \(index)"}, \
                "geometry": {"type": "Point", "coordinates": [\(longitude), \(latitude)]}}
                """
        }
        return "{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ", "))]}"
    }()
}
