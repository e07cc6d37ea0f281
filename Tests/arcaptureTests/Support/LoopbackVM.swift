import Foundation
import TestSupport

/// One boot of the test VM with a v4l2loopback camera (Tests/VM/guest-loopback.sh), shared by
/// every test in ``VividLoopbackTests``: MJPEG frames from a real driver, fed by an independent
/// writer (Tests/VM/loopback-writer.c) with the frames Tests/VM/make-loopback-frames.py makes.
struct LoopbackVM: GuestResults {
    /// The guest's /out, as the host sees it.
    let directory: URL
    /// The frames each writer run fed, by file name (`good-1280x720`, `bad-1280x720`): each
    /// frame's kind and bytes, in the order the writer wrote them (and again, pass after pass).
    let feeds: [String: [(kind: String, bytes: [UInt8])]]

    /// The run, started when the test run is planned (``VMBootTrait``) or by the first test that
    /// reads it, on a thread of its own, beside the vivid VM's (see ``VividVM/shared``).
    static let shared = Task<LoopbackVM, any Error> { try await OffPool.run { try LoopbackVM.boot() } }

    private static func boot() throws -> LoopbackVM {
        let fileManager = FileManager.default
        guard fileManager.isExecutableFile(atPath: Binary.path) else {
            throw VividVM.Unavailable(description: "the built binary is missing at \(Binary.path)")
        }
        let install = "bash scripts/install-deps"
        let vmDirectory = Binary.packageRoot.appendingPathComponent("Tests/VM")
        let (payload, out) = try VMRunSupport.freshRun("loopback-vm-run")

        // The module, built for the VM's kernel (cached), and the writer, built here.
        var kernelRoot = ProcessInfo.processInfo.environment["ARCAPTURE_VM_KERNEL_ROOT"] ?? ""
        if kernelRoot.isEmpty {
            let fetched = try ProcessRunner.runBlocking(
                executable: "/bin/bash", arguments: [vmDirectory.appendingPathComponent("fetch-kernel.sh").path])
            guard fetched.status == 0 else {
                throw VividVM.Unavailable(description: "fetch-kernel.sh failed: \(fetched.stderr)")
            }
            kernelRoot = fetched.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let module = try ProcessRunner.runBlocking(
            executable: "/bin/bash",
            arguments: [vmDirectory.appendingPathComponent("build-loopback.sh").path, kernelRoot])
        guard module.status == 0 else {
            throw VividVM.Unavailable(description: "v4l2loopback did not build: \(module.stderr)")
        }
        try fileManager.copyItem(
            atPath: module.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
            toPath: payload.appendingPathComponent("v4l2loopback.ko").path)
        let writer = try ProcessRunner.runBlocking(
            tool: "gcc",
            [
                "-O2", "-Wall", "-Wextra", "-Werror", "-o", payload.appendingPathComponent("loopback-writer").path,
                vmDirectory.appendingPathComponent("loopback-writer.c").path,
            ], install: install)
        guard writer.status == 0 else {
            throw VividVM.Unavailable(description: "loopback-writer did not build: \(writer.stderr)")
        }
        let photos = ["lund_01.jpg", "lund_21.jpg", "helsinki_west_harbour_nokia83.jpg"].map {
            PackagePaths.sample("photos/\($0)")
        }
        let frames = try ProcessRunner.runBlocking(
            tool: "python3",
            [vmDirectory.appendingPathComponent("make-loopback-frames.py").path, payload.path] + photos,
            install: install)
        guard frames.status == 0 else {
            throw VividVM.Unavailable(description: "make-loopback-frames.py failed: \(frames.stderr)")
        }
        var feeds: [String: [(kind: String, bytes: [UInt8])]] = [:]
        for name in ["good-1280x720", "good-1920x1080", "restart-1280x720", "bad-1280x720"] {
            feeds[name] = try Self.records(
                payload.appendingPathComponent("\(name).frames"), kinds: payload.appendingPathComponent("\(name).kinds")
            )
        }
        try fileManager.copyItem(atPath: Binary.path, toPath: payload.appendingPathComponent("arcapture").path)
        for script in ["guest-loopback.sh", "guest-lib.sh"] {
            try fileManager.copyItem(
                at: vmDirectory.appendingPathComponent(script), to: payload.appendingPathComponent(script))
        }
        try Data(VividVM.boatPOIs.utf8).write(to: payload.appendingPathComponent("e2e-pois.geojson"))
        // The sample footage, annotated to the virtual camera.
        for (sample, name) in [
            ("footage/harbour.mjpeg", "harbour.mjpeg"), ("footage/harbour.gpx", "harbour.gpx"),
            ("footage/harbour-camera.yaml", "harbour-camera.yaml"),
            ("pois/helsinki_center_osm_pois.geojson", "harbour-pois.geojson"),
        ] {
            try fileManager.copyItem(
                atPath: PackagePaths.sample(sample), toPath: payload.appendingPathComponent(name).path)
        }
        try VMRunSupport.cutHarbourClip(to: payload.appendingPathComponent("clip6.mjpeg"))
        try VMRunSupport.addCrashReporter(to: payload)

        let started = Date()
        let result = try ProcessRunner.runBlocking(
            executable: "/bin/bash",
            arguments: [
                vmDirectory.appendingPathComponent("vivid-vm.sh").path, payload.path, out.path, "guest-loopback.sh",
            ],
            // A bound only a hang reaches (the suites' limit is 40 minutes): 600 s once was one, until
            // fresh-clone runs of scripts/test on 2026-12-08 had the guest still at work at 600 s,
            // quiet (624 s with the suite's other tests beside it) and with both cores busy (658 s).
            environment: ["ARCAPTURE_VM_TIMEOUT": "2340", "ARCAPTURE_VM_HOST_PROGRAMS": "ffmpeg"])
        FileHandle.standardError.write(
            Data(
                "loopback VM suite: guest scenarios ran in \(String(format: "%.1f", Date().timeIntervalSince(started))) s wall time\n"
                    .utf8))
        guard result.status == 0 else {
            let console = (try? String(contentsOf: out.appendingPathComponent("vm-console.log"), encoding: .utf8)) ?? ""
            throw VividVM.Unavailable(
                description:
                    "the VM failed with status \(result.status): \(result.stderr)\nconsole:\n\(console.suffix(3000))")
        }
        try VMRunSupport.collectCoverage(from: out.appendingPathComponent("profiles"), prefix: "loopback-vm")
        return LoopbackVM(directory: out, feeds: feeds)
    }

    /// The frames of a writer's file (a 4-byte little-endian length, then the frame) and their kinds.
    private static func records(_ file: URL, kinds: URL) throws -> [(kind: String, bytes: [UInt8])] {
        let bytes = Array(try Data(contentsOf: file))
        let names = try String(contentsOf: kinds, encoding: .utf8).split(separator: "\n").map(String.init)
        var frames: [[UInt8]] = []
        var position = 0
        while position + 4 <= bytes.count {
            let length = bytes[position..<position + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            frames.append(Array(bytes[position + 4..<position + 4 + length]))
            position += 4 + length
        }
        guard frames.count == names.count else {
            throw VividVM.Unavailable(
                description: "\(file.lastPathComponent): \(frames.count) frames, \(names.count) kinds")
        }
        return Array(zip(names, frames)).map { (kind: $0.0, bytes: $0.1) }
    }
}
