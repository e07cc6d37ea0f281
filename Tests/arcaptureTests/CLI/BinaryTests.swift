import Foundation
import Testing

@testable import ArcaptureCLI

/// The built `arcapture` binary, run as a user runs it, on this machine (which has no camera). The
/// VM suite covers what needs a real driver.
@Suite("arcapture binary")
struct BinaryTests {
    @Test("--version and --help print to stdout and exit 0")
    func versionAndHelp() async throws {
        let version = try await Binary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("arcapture "))
        let help = try await Binary.run(["--help"])
        #expect(help.status == 0)
        #expect(
            help.stdout.contains("SUBCOMMANDS:") && help.stdout.contains("devices") && help.stdout.contains("check"))
        #expect(help.stderr.isEmpty)
    }

    @Test("every subcommand has help, even next to bad arguments", arguments: ["devices", "check", "project", "serve"])
    func subcommandHelp(name: String) async throws {
        for arguments in [[name, "--help"], [name, "--no-such-option", "-h"], ["help", name]] {
            let result = try await Binary.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdout.hasPrefix("OVERVIEW: "))
            #expect(result.stdout.contains("USAGE: arcapture \(name)"))
            #expect(result.stdout.contains("OPTIONS:"))
        }
    }

    @Test("usage errors go to stderr as 'error: …' with status 64")
    func usageErrors() async throws {
        let cases: [([String], String)] = [
            (["chek"], "error: unknown subcommand 'chek' (did you mean 'check'?)"),
            (["check", "--frame", "3"], "error: unknown option '--frame' (did you mean '--frames'?)"),
            (["check", "--frames", "1"], "error: --frames must be a whole number from 2 to 100000, not '1'"),
            (["check", "--size", "big"], "error: --size must be WIDTHxHEIGHT such as 1280x720, not 'big'"),
            (
                ["serve", "--listen", "localhost:80"],
                "error: --listen: 'localhost:80' is not an address to listen on: 'localhost' is not an IPv4 address"
            ),
            (
                ["serve", "--listen", "127.0.0.1:99999"],
                "error: --listen: '127.0.0.1:99999' is not an address to listen on: the port must be a number from 0 to 65535, not '99999'"
            ),
            (["serve", "--output", "x.jpg"], "error: unknown option '--output'"),
            ([], "error: no subcommand given"),
        ]
        for (arguments, message) in cases {
            let result = try await Binary.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test("an absent device gives status 69, the JSON report and the fix")
    func absentDevice() async throws {
        let result = try await Binary.run(["check", "--device", "/dev/arcapture-absent", "--json"])
        #expect(result.status == 69)
        let report = try CheckDocument.decode(result.stdout)
        #expect(report.result == "error")
        #expect(report.authorization.status == "notDetermined")
        #expect(report.checks.map(\.status) == ["fail"] + Array(repeating: "skip", count: 11))
        #expect(report.checks.suffix(4).map(\.name) == ["picture", "restarts", "stop-queued", "reopen"])
        #expect(report.lifecycle == nil)
        #expect(report.picture.framesRead == 0 && report.picture.lumaMean == nil)
        #expect(
            result.stderr
                == "error: cannot open '/dev/arcapture-absent': no such device (is the camera connected? 'arcapture devices' lists the cameras found)\n"
        )
    }

    @Test("a device that does not appear within --wait is reported as absent")
    func waitTimesOut() async throws {
        let result = try await Binary.run(["check", "--device", "/tmp/arcapture-absent/video0", "--wait", "0.3"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("waiting up to 0.3 s for '/tmp/arcapture-absent/video0'"))
    }

    @Test("Ctrl-C while waiting for a camera exits 130")
    func interruptWhileWaiting() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["check", "--device", "/tmp/arcapture-absent/video0", "--wait", "60", "--json"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Wait until it says it is waiting, so the signal arrives during the wait.
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("waiting up to") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said.append(chunk)
        }
        process.interrupt()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let rest = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(String(decoding: said + rest, as: UTF8.self).contains("error: interrupted"))
        let report = try CheckDocument.decode(String(decoding: output, as: UTF8.self))
        #expect(report.result == "interrupted")
    }

    @Test("nodes that are not V4L2 capture devices are refused with 69", arguments: ["/dev/null", "/etc/hostname"])
    func notVideo(path: String) async throws {
        let result = try await Binary.run(["check", "--device", path, "--json"])
        #expect(result.status == 69)
        let report = try CheckDocument.decode(result.stdout)
        #expect(report.authorization.status == "restricted")
        #expect(report.error?.reason.hasPrefix("'\(path)' is not a V4L2 device") == true)
    }

    @Test("a JUnit file is written even when the device is missing; an unwritable one is 73 before the device")
    func junit() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arcapture-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("camera.xml").path
        let result = try await Binary.run(["check", "--device", "/dev/arcapture-absent", "--junit", file])
        #expect(result.status == 69)
        let xml = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            xml.contains(
                "<failure message=\"notDetermined: cannot open &apos;/dev/arcapture-absent&apos;: no such device\""))
        let contents = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(contents == ["camera.xml"], "no temporary file is left behind")

        let unwritable = try await Binary.run([
            "check", "--device", "/dev/arcapture-absent", "--junit", "/nonexistent-dir/x.xml",
        ])
        // Found before the device is looked at, as --stream-to is: 73, no report.
        #expect(unwritable.status == 73, "\(unwritable.stderr)")
        #expect(unwritable.stderr.hasPrefix("error: cannot write '/nonexistent-dir/x.xml'"))
        #expect(unwritable.stdout.isEmpty)
    }

    @Test("--stream-to into a missing directory fails before any capture with status 73")
    func streamToUnwritable() async throws {
        let result = try await Binary.run([
            "check", "--device", "/dev/null", "--stream-to", "/nonexistent-dir/frames.raw",
        ])
        #expect(result.status == 73)
        #expect(result.stderr.hasPrefix("error: cannot write '/nonexistent-dir/frames.raw'"))
    }

    @Test("devices in a directory without cameras prints an empty list and exits 69")
    func noDevices() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arcapture-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try await Binary.run(["devices", "--json", "--dev", directory.path])
        #expect(json.status == 69)
        let document = try DevicesDocumentSchema.decode(json.stdout)
        #expect(document.schema == "arcapture.devices/1")
        #expect(document.devices.isEmpty)
        #expect(json.stderr.contains("error: no V4L2 video devices in '\(directory.path)'"))
        let text = try await Binary.run(["devices", "--dev", directory.path])
        #expect(text.status == 69)
        #expect(text.stdout.isEmpty)
    }
}

/// `arcapture capture`'s command line, checked before any camera is touched.
@Suite("arcapture capture options")
struct CaptureOptionsBinaryTests {
    @Test(
        "bad combinations are refused with what to write instead",
        arguments: [
            (["--count", "5", "--output", "same.jpg"], "would give every frame the same name: add %n"),
            (["--count", "2", "--duration", "10s"], "--count and --duration are alternatives"),
            (["--every", "often"], "--every must be an interval such as 500ms, 10s or 1m"),
            (
                ["--format-out", "y4m", "--output", "x-%n.jpg"],
                "--format-out y4m is for streams: use it with --output -"
            ),
            (["--skip", "3", "--settle"], "--skip and --settle are alternatives"),
            (["--set", "brightness"], "--set must be NAME=VALUE"),
            (["--quality", "0"], "--quality must be a whole number from 1 to 100"),
            (
                ["--pois", "p.geojson", "--location", "gpsd://127.0.0.1:2947", "--pose-sidecar", "poses.csv"],
                "--pose-sidecar replays with a recorded --location (a GPX or NMEA file)"
            ),
            (["--imu", "auto", "--pose-sidecar", "poses.csv"], "--imu and --pose-sidecar are alternatives"),
            (
                ["--imu", "auto", "--imu-declination", "east"],
                "--imu-declination must be auto or a number from -180 to 180, not 'east'"
            ),
            (["--output", "v4l2:video10"], "--output v4l2: needs the loopback's node, such as v4l2:/dev/video10"),
            (
                ["--output", "srt://127.0.0.1:9000"],
                "is a URL, not a file: arcapture writes files, stdout (-) and virtual cameras (v4l2:/dev/videoN), "
                    + "and publishes to no server itself yet; to send to srt://, pipe it through ffmpeg: --output - "
                    + "--format-out y4m | ffmpeg -i - -c:v libx264 -tune zerolatency -f mpegts 'srt://127.0.0.1:9000'"
            ),
            (
                ["--output", "v4l2:/dev/video10", "--format-out", "y4m"],
                "--format-out for a virtual camera must be yuyv or mjpeg, not 'y4m'"
            ),
        ])
    func usage(arguments: [String], message: String) async throws {
        let result = try await Binary.run(["capture", "--device", "/dev/arcapture-absent"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("input files are read before the camera: a broken one is named (65), not the missing camera (69)")
    func inputBeforeCamera() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let track = Binary.packageRoot.appendingPathComponent("samples/footage/harbour.gpx").path
        let pois = Binary.packageRoot.appendingPathComponent("samples/pois/helsinki-senate-square.geojson").path
        // A pose sidecar from another day than the track: it would replay against nothing.
        let poses = directory.appendingPathComponent("poses.csv")
        try Data("time,heading\n2001-01-01T00:00:00Z,90\n2001-01-01T00:00:01Z,91\n".utf8).write(to: poses)
        let result = try await Binary.run([
            "capture", "--device", "/dev/arcapture-absent", "--pois", pois, "--location", track,
            "--pose-sidecar", poses.path,
        ])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("\(poses.path): its samples (2001-01-01T00:00:00Z"), "\(result.stderr)")
        #expect(result.stderr.contains("do not overlap \(track)'s fixes"), "\(result.stderr)")
        let broken = directory.appendingPathComponent("broken.geojson")
        let feature =
            #"{"type": "Feature", "properties": {"name": "x"}, "geometry": {"type": "Point", "coordinates": [24.9]}}"#
        try Data((#"{"type": "FeatureCollection", "features": ["# + feature + "]}").utf8).write(to: broken)
        let poisResult = try await Binary.run([
            "capture", "--device", "/dev/arcapture-absent", "--pois", broken.path, "--location", "60.17,24.94,20",
        ])
        #expect(poisResult.status == 65, "\(poisResult.stderr)")
        #expect(poisResult.stderr.contains("\(broken.path): "), "\(poisResult.stderr)")
        #expect(poisResult.stderr.contains("coordinates"), "\(poisResult.stderr)")
    }

    @Test("a missing camera is 69 before anything is written")
    func missingCamera() async throws {
        let result = try await Binary.run([
            "capture", "--device", "/dev/arcapture-absent", "--output", "/nonexistent-dir/x.jpg",
        ])
        #expect(result.status == 69)
        #expect(result.stderr.contains("cannot open '/dev/arcapture-absent': no such device"))
    }
}

@Suite("Capture intervals")
struct CaptureIntervalTests {
    @Test("intervals in the units people write")
    func intervals() {
        #expect(CaptureInterval.seconds("500ms") == 0.5)
        #expect(CaptureInterval.seconds("10s") == 10)
        #expect(CaptureInterval.seconds("1.5m") == 90)
        #expect(CaptureInterval.seconds("2h") == 7200)
        #expect(CaptureInterval.seconds("3") == 3)
        #expect(CaptureInterval.seconds("-1s") == nil)
        #expect(CaptureInterval.seconds("soon") == nil)
    }
}
