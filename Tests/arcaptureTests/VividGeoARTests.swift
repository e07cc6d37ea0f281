import ARCompositor
import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore

/// Live annotated capture end to end against real parts: vivid as the camera in the VM, a real
/// gpsd on the host fed by gpsfake replaying a boat's log (samples/nmea/bundg_zeus_9.log), stopped
/// and started again mid-run (the scenario is in Tests/VM/guest-suite.sh, in the same boot).
@Suite("live annotated capture on vivid with gpsd", .serialized, .timeLimit(.minutes(40)), .bootsVividVM)
struct VividGeoARTests {
    func vm() async throws -> VividVM { try await VividVM.shared.value }

    private func records(_ vm: VividVM) throws -> [[String: Any]] {
        String(decoding: try vm.file("capture/e2e.jsonl"), as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    struct Fix {
        var time: Date
        var latitude: Double
        var longitude: Double
    }

    /// The fixes gpsd sent, as a second client recorded them: for each epoch's time (in order),
    /// every version gpsd sent (it sends an epoch again as more of its sentences arrive, and the
    /// view may have drawn a frame with any of them).
    private func gpsdEpochs(_ vm: VividVM) throws -> [(time: Date, versions: [Fix])] {
        var byTime: [Date: [Fix]] = [:]
        for line in String(decoding: try vm.file("e2e-fixes.jsonl"), as: UTF8.self).split(separator: "\n") {
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                event["event"] as? String == "fix", let time = (event["time"] as? String).flatMap(UTCTime.parse),
                let latitude = event["lat"] as? Double, let longitude = event["lon"] as? Double
            else { continue }
            byTime[time, default: []].append(Fix(time: time, latitude: latitude, longitude: longitude))
        }
        return byTime.keys.sorted().map { ($0, byTime[$0] ?? []) }
    }

    @Test("the phases are said as they happen: running with the fix, interrupted when gpsd stops, running again")
    func phases() async throws {
        let vm = try await vm()
        let run = try vm.scenario("e2e")
        #expect(run.status == 130, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let running = lines.filter { $0.hasPrefix("running: 320x180 YUYV 10 fps, fix ") }
        #expect(running.count >= 2, "\(run.stderr)")
        let interrupted = try #require(
            lines.firstIndex { $0.hasPrefix("interrupted: the location source has no position (unavailable") },
            "\(run.stderr)")
        let waiting = lines.indices.filter { lines[$0].hasPrefix("waiting for a location fix from gpsd://10.0.2.2:") }
        #expect(waiting.contains { $0 > interrupted }, "waiting again after the interruption: \(run.stderr)")
        #expect(lines.lastIndex { $0.hasPrefix("running:") }.map { $0 > interrupted } == true)
        // The summary counts both kinds of frames, and the latency.
        let summary = try #require(lines.first { $0.hasPrefix("captured ") })
        #expect(summary.contains(" annotated, ") && summary.contains(" without a pose passed through"), "\(summary)")
        #expect(summary.contains("capture to written ") && summary.contains("99th percentile"), "\(summary)")
        // "… (38 annotated, 51 without a pose passed through), …"
        let beforePhrase = try #require(summary.range(of: " without a pose passed through")).lowerBound
        let withoutPose = try #require(Int(summary[..<beforePhrase].split(separator: " ").last ?? ""))
        #expect(withoutPose >= 5, "\(summary)")
    }

    @Test(
        "each annotated frame's pose lies on the log's track, between a fix and one after it (or past the newest, extrapolated)"
    )
    func posesOnTheTrack() async throws {
        let vm = try await vm()
        let records = try records(vm)
        let epochs = try gpsdEpochs(vm)
        let posed = records.filter { $0["pose"] is [String: Any] }
        #expect(posed.count >= 15)
        #expect(records.filter { $0["no_pose"] is String }.count >= 5, "frames passed through while gpsd was away")
        for record in posed {
            let pose = try #require(record["pose"] as? [String: Any])
            let (latitude, longitude) = (pose["lat"] as? Double ?? 0, pose["lon"] as? Double ?? 0)
            let fixTime = try #require((record["fix_time"] as? String).flatMap { UTCTime.parse($0) })
            let index = try #require(epochs.firstIndex { abs($0.time.timeIntervalSince(fixTime)) < 0.001 })
            let origin = epochs[index].versions[0]
            let frame = LocalFrame(latitude: origin.latitude, longitude: origin.longitude, altitude: 0)
            func offset(_ fix: Fix) -> SIMD2<Double> {
                let enu = frame.enu(latitude: fix.latitude, longitude: fix.longitude, altitude: 0)
                return SIMD2(enu.east, enu.north)
            }
            let pointENU = frame.enu(latitude: latitude, longitude: longitude, altitude: 0)
            let point = SIMD2(pointENU.east, pointENU.north)
            // Distance from the line from `start` to `end`, and where along it (0 at start, 1 at end).
            func fit(_ start: SIMD2<Double>, _ end: SIMD2<Double>) -> (distance: Double, along: Double) {
                let direction = end - start
                let length = (direction * direction).sum().squareRoot()
                guard length > 1e-6 else { return (((point - start) * (point - start)).sum().squareRoot(), 0) }
                let unit = direction / length
                let across = point - start - unit * ((point - start) * unit).sum()
                return ((across * across).sum().squareRoot(), ((point - start) * unit).sum() / length)
            }
            let current = epochs[index].versions.map(offset)
            let fits: Bool
            if (record["extrapolation_s"] as? Double ?? 0) > 0 {
                // Past the newest fix: on the line from the epoch before through this one, ahead of
                // it, or held at it (after a gap).
                let before = index > 0 ? epochs[index - 1].versions.map(offset) : []
                fits = current.contains { a in
                    ((point - a) * (point - a)).sum().squareRoot() < 0.05
                        || before.contains { b in
                            let (distance, along) = fit(b, a)
                            return distance < 0.05 && along >= 1 - 1e-3
                        }
                }
            } else {
                // Between this fix and one after it (gpsd may skip an epoch now and then).
                let later = epochs[(index + 1)..<min(index + 4, epochs.count)].flatMap { $0.versions.map(offset) }
                fits = current.contains { a in
                    later.contains { b in
                        let (distance, along) = fit(a, b)
                        return distance < 0.05 && along >= -1e-3 && along <= 1 + 1e-3
                    }
                }
            }
            #expect(
                fits,
                "frame \(record["frame"] ?? "?") at \(latitude), \(longitude) is off the track near epoch \(index)")
        }
    }

    @Test("the sidecar's pixels are `arcapture project`'s for the pose it recorded")
    func pixelsMatchProject() async throws {
        let vm = try await vm()
        let posed = try records(vm).filter { ($0["pois"] as? [[String: Any]])?.isEmpty == false }
        #expect(posed.count >= 10)
        let pois = vm.directory.deletingLastPathComponent().appendingPathComponent("payload/e2e-pois.geojson").path
        for record in posed.prefix(3) {
            let pose = try #require(record["pose"] as? [String: Any])
            func number(_ key: String) -> String { String(pose[key] as? Double ?? .nan) }
            let projected = try await Binary.run([
                "project", "--pois", pois, "--position", "\(number("lat")),\(number("lon")),\(number("alt_m"))",
                "--orientation", "\(number("heading_deg")),\(number("pitch_deg")),\(number("roll_deg"))", "--hfov",
                "70",
                "--size", "320x180", "--height-above-ground", "2", "--json",
            ])
            #expect(projected.status == 0, "\(projected.stderr)")
            let table = try #require(
                try JSONSerialization.jsonObject(with: Data(projected.stdout.utf8)) as? [[String: Any]])
            for drawn in record["pois"] as? [[String: Any]] ?? [] {
                let expected = try #require(table.first { $0["id"] as? String == drawn["id"] as? String })
                #expect(abs((drawn["u"] as? Double ?? 0) - (expected["u"] as? Double ?? .nan)) < 1e-6)
                #expect(abs((drawn["v"] as? Double ?? 0) - (expected["v"] as? Double ?? .nan)) < 1e-6)
            }
        }
    }

    @Test("every frame the sidecar names is a whole JPEG of the camera's size")
    func filesWhole() async throws {
        let vm = try await vm()
        let records = try records(vm)
        let files = String(decoding: try vm.file("e2e.files"), as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("e2e-") && $0.hasSuffix(".jpg") }
        #expect(files.count == records.count)
        #expect(!files.contains { $0.hasPrefix(".") }, "no temporary file is left")
        for record in [records.first, records.last].compactMap({ $0 }) {
            let name = URL(fileURLWithPath: try #require(record["file"] as? String)).lastPathComponent
            let fields = try await VividCaptureTests.probe([vm.directory.appendingPathComponent("capture/\(name)").path]
            )
            #expect(fields.prefix(2) == ["320", "180"], "\(name)")
        }
    }
}
