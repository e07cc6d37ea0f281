import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore

/// `arcapture annotate --batch MANIFEST`: the built binary over manifests of real footage (the
/// harbour clip and its track, the GoPro clip with its own GPS), as a fleet's operator runs it:
/// resumable, sharded, a report, failures that leave the other rows done.
@Suite("arcapture annotate --batch")
struct AnnotateBatchTests {
    /// The harbour options every row shares (each row gives its footage, track and output).
    static let common: [String] = [
        "--start", "2022-08-14T11:12:32Z", "--fps", "8", "--heading-from-course", "--camera",
        PackagePaths.sample("footage/harbour-camera.yaml"), "--height-above-ground", "3", "--pois",
        PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"), "--max-markers", "12", "--workers", "1",
    ]

    /// A folder with `count` copies of the harbour clip and its track, and a CSV manifest of them
    /// (outputs in out/), plus `extra` lines.
    private func fleet(_ count: Int, extra: [String] = []) throws -> (folder: URL, manifest: String) {
        let folder = try PackagePaths.temporaryDirectory("batch")
        for index in 0..<count {
            try FileManager.default.copyItem(
                atPath: PackagePaths.sample("footage/harbour.mjpeg"),
                toPath: folder.appendingPathComponent("clip\(index).mjpeg").path)
        }
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("footage/harbour.gpx"), toPath: folder.appendingPathComponent("track.gpx").path)
        let lines =
            ["footage,track,output,options"]
            + (0..<count).map { "clip\($0).mjpeg,track.gpx,out/clip\($0).mjpeg," + ($0 % 2 == 0 ? "" : "--minimap") }
            + extra
        let manifest = folder.appendingPathComponent("fleet.csv").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        return (folder, manifest)
    }

    private func report(_ path: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test(
        "a missing file and a bad row fail alone: the other rows are done, the report names both, exit 1; a rerun skips what is done"
    )
    func failuresAndResume() async throws {
        let (folder, manifest) = try fleet(
            3,
            extra: [
                "missing.mjpeg,track.gpx,out/missing.mjpeg,", "clip0.mjpeg,track.gpx,out/bad.mjpeg,--max-markers -3",
            ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let reportPath = folder.appendingPathComponent("report.json").path
        let first = try await Binary.run(["annotate", "--batch", manifest, "--report", reportPath] + Self.common)
        #expect(first.status == 1, "\(first.stderr)")
        #expect(first.stderr.contains("batch: 5 of 5 rows of \(manifest)"))
        #expect(first.stderr.contains("row 3: error: \(folder.path)/missing.mjpeg: no such file"), "\(first.stderr)")
        #expect(first.stderr.contains("row 3 (line 5, \(folder.path)/missing.mjpeg): failed (66)"))
        #expect(first.stderr.contains("row 4 (line 6, \(folder.path)/clip0.mjpeg): failed (64): error: --max-markers"))
        #expect(
            first.stderr.contains("batch: 3 done, 0 skipped (done before), 2 failed; report in \(reportPath)"))
        let outputs = (0..<3).map { folder.appendingPathComponent("out/clip\($0).mjpeg").path }
        #expect(first.stdout.split(separator: "\n").map(String.init) == outputs)
        for output in outputs { #expect(FileManager.default.fileExists(atPath: output)) }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).sorted()
                == ["clip0.mjpeg", "clip1.mjpeg", "clip2.mjpeg"], "nothing of the failed rows")
        let written = try report(reportPath)
        #expect(written["schema"] as? String == "arcapture.batch-report/1")
        #expect(written["done"] as? Int == 3 && written["failed"] as? Int == 2 && written["skipped"] as? Int == 0)
        let rows = try #require(written["rows"] as? [[String: Any]])
        #expect(rows.map { $0["status"] as? String } == ["done", "done", "done", "failed", "failed"])
        #expect(rows[3]["exit_status"] as? Int == 66)
        #expect((rows[3]["message"] as? String)?.contains("missing.mjpeg: no such file") == true)
        // Each output is what annotate by hand writes: row 1 with its own --minimap.
        let byHand = folder.appendingPathComponent("by-hand.mjpeg").path
        let single = try await Binary.run(
            [
                "annotate", folder.appendingPathComponent("clip1.mjpeg").path, "--track",
                folder.appendingPathComponent("track.gpx").path, "--output", byHand, "--minimap",
            ] + Self.common)
        #expect(single.status == 0, "\(single.stderr)")
        #expect(FileManager.default.contents(atPath: byHand) == FileManager.default.contents(atPath: outputs[1]))
        // Again: the rows done are skipped (their outputs untouched), the failed ones tried again.
        let dates = {
            try outputs.map { try FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date }
        }
        let before = try dates()
        let second = try await Binary.run(["annotate", "--batch", manifest] + Self.common)
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("batch: 0 done, 3 skipped (done before), 2 failed"), "\(second.stderr)")
        #expect(second.stderr.contains("row 3 (line 5, \(folder.path)/missing.mjpeg): failed (66)"), "tried again")
        #expect(try dates() == before, "the outputs done are left as they were")
    }

    @Test(
        "only a completion record marks a row done: an output without one, or changed since, is refused (--force redoes it); a killed row's partial file is removed"
    )
    func completionRecords() async throws {
        let (folder, manifest) = try fleet(3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = (0..<3).map { folder.appendingPathComponent("out/clip\($0).mjpeg").path }
        let records = manifest + ".done"
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        // Row 0: a file under its name that no run of this batch finished (a partial output a
        // killed batch of an earlier version left, or someone's file). Row 1: what a killed run of
        // the row left under its partial name.
        try Data("not this batch's".utf8).write(to: URL(fileURLWithPath: outputs[0]))
        let leftover = folder.appendingPathComponent("out/clip1.partial.mjpeg").path
        try Data("cut short".utf8).write(to: URL(fileURLWithPath: leftover))
        let first = try await Binary.run(["annotate", "--batch", manifest] + Self.common)
        #expect(first.status == 1, "\(first.stderr)")
        #expect(
            first.stderr.contains(
                "row 0 (line 2, \(folder.path)/clip0.mjpeg): failed (not run): \(outputs[0]) exists, but this batch has no record of finishing it"
            ), "\(first.stderr)")
        #expect(first.stderr.contains("--force does the row again, replacing it"))
        #expect(try String(contentsOfFile: outputs[0], encoding: .utf8) == "not this batch's", "left as it was")
        #expect(
            first.stderr.contains("row 1: removed \(leftover), what a stopped run of the row left"), "\(first.stderr)")
        #expect(first.stderr.contains("batch: 2 done, 0 skipped (done before), 1 failed"), "\(first.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out").path).sorted()
                == ["clip0.mjpeg", "clip1.mjpeg", "clip2.mjpeg"], "no partial file left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: records).count == 2)
        let record = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    contentsOf: URL(
                        fileURLWithPath: records + "/"
                            + (try FileManager.default.contentsOfDirectory(atPath: records).sorted().first ?? ""))))
                as? [String: Any])
        #expect(Set(record.keys) == ["output", "footage", "line", "bytes", "modifiedNanoseconds", "finished"])
        #expect(outputs.dropFirst().contains(record["output"] as? String ?? ""))

        // Row 2's output changed after its record (appended to): no longer taken as done.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: outputs[2]))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let second = try await Binary.run(["annotate", "--batch", manifest] + Self.common)
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("batch: 0 done, 1 skipped (done before), 2 failed"), "\(second.stderr)")
        #expect(second.stderr.contains("row 1 (line 3, \(folder.path)/clip1.mjpeg): skipped: \(outputs[1]) is done"))

        // --force: every row again, the outputs replaced by whole ones, each with its record.
        let forced = try await Binary.run(["annotate", "--batch", manifest, "--force"] + Self.common)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stderr.contains("batch: 3 done, 0 skipped (done before), 0 failed"), "\(forced.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: records).count == 3)
        let again = try await Binary.run(["annotate", "--batch", manifest] + Self.common)
        #expect(again.stderr.contains("batch: 0 done, 3 skipped (done before), 0 failed"), "\(again.stderr)")
        #expect(FileManager.default.contents(atPath: outputs[0]) == FileManager.default.contents(atPath: outputs[2]))
        // The records hold for the same batch run from elsewhere, its manifest named relatively (by
        // hand in its folder, or by a scheduler from the folder above).
        for (folderRunIn, named) in [
            (folder.path, "fleet.csv"),
            (folder.deletingLastPathComponent().path, folder.lastPathComponent + "/fleet.csv"),
        ] {
            let relative = try await Binary.run(
                executable: "/bin/sh",
                arguments: ["-c", "cd \"$0\" && exec \"$@\"", folderRunIn, Binary.path, "annotate", "--batch", named]
                    + Self.common)
            #expect(
                relative.stderr.contains("batch: 0 done, 3 skipped (done before), 0 failed"),
                "from \(folderRunIn): \(relative.stderr)")
        }
    }

    @Test(
        "kill -9 of a batch and its row mid-row (a node lost) leaves no output under its name; the next run does the row"
    )
    func killedMidRow() async throws {
        let (folder, _) = try fleet(1)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The row's footage comes through a named pipe held open: the row waits for more, however
        // fast it is, until killed.
        let fifo = folder.appendingPathComponent("live.mjpeg").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let manifest = folder.appendingPathComponent("live.csv").path
        try "footage,track,output,options\nlive.mjpeg,track.gpx,out/live.mjpeg,\n".write(
            toFile: manifest, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out/live.mjpeg").path
        let clip = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("footage/harbour.mjpeg")))
        let held = try PipeFeeder(path: fifo, bytes: clip, closeAtEnd: false)
        defer { held.stop() }

        let batch = Process()
        batch.executableURL = URL(fileURLWithPath: Binary.path)
        batch.arguments = ["annotate", "--batch", manifest] + Self.common
        batch.standardError = FileHandle.nullDevice
        batch.standardOutput = FileHandle.nullDevice
        try batch.run()
        let out = folder.appendingPathComponent("out").path
        let temporary = { @Sendable () -> String? in
            ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).first { $0.hasSuffix(".tmp") }
        }
        // Killed once the row has written a frame into its temporary file, with the row: what a
        // scheduler's kill of the job's cgroup, or a node lost, does.
        #expect(
            await OffPool.wait {
                guard let name = temporary() else { return false }
                return ((try? FileManager.default.attributesOfItem(atPath: out + "/" + name)[.size]) as? Int ?? 0) > 0
            })
        let rows = Self.children(of: batch.processIdentifier)
        #expect(rows.count == 1, "the row under way: \(rows)")
        kill(batch.processIdentifier, SIGKILL)
        for row in rows { kill(row, SIGKILL) }
        batch.waitUntilExit()
        // The row, an orphan now, is gone once reaped (SIGKILL takes effect as the kernel gets to
        // it): until then the next run sees its process and keeps its temporary file, as it must
        // for a run still going.
        #expect(await OffPool.wait(seconds: 600) { rows.allSatisfy { kill($0, 0) != 0 && errno == ESRCH } })
        held.stop()
        #expect(!FileManager.default.fileExists(atPath: output), "nothing under the final name")
        #expect(!FileManager.default.fileExists(atPath: manifest + ".done"), "no record")

        let fed = try PipeFeeder(path: fifo, bytes: clip, closeAtEnd: true)
        defer { fed.stop() }
        let next = try await Binary.run(["annotate", "--batch", manifest] + Self.common)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("batch: 1 done, 0 skipped (done before), 0 failed"), "\(next.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(left == ["live.mjpeg"], "the killed row's file is gone: \(left)\n\(next.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: manifest + ".done").count == 1)
    }

    /// The processes whose parent is `pid` (from /proc/PID/task/*/children).
    private static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    @Test(
        "a row written to a device (/dev/null, a run for its speed) is never skipped as done, nor removed when it fails"
    )
    func deviceOutputs() async throws {
        let (folder, _) = try fleet(1)
        defer { try? FileManager.default.removeItem(at: folder) }
        let null = DeviceNodes.null(in: folder)
        let device = try #require(DeviceNodes.node(null))
        for (options, summary) in [
            ("", "1 done, 0 skipped"), ("", "1 done, 0 skipped"), ("--max-markers -3", "0 done, 0 skipped"),
        ] {
            let manifest = folder.appendingPathComponent("to-null.csv").path
            try "footage,track,output,options\nclip0.mjpeg,track.gpx,\(null),\(options)\n".write(
                toFile: manifest, atomically: true, encoding: .utf8)
            let run = try await Binary.run(["annotate", "--batch", manifest] + Self.common)
            #expect(run.status == (options.isEmpty ? 0 : 1), "\(run.stderr)")
            #expect(run.stderr.contains("batch: \(summary)"), "\(run.stderr)")
            let after = DeviceNodes.node(null)
            #expect(after?.type == S_IFCHR && after?.device == device.device, "still the device")
        }
    }

    @Test("--shard K/N: three shards do disjoint rows whose outputs, together, are byte-identical to one run's")
    func shards() async throws {
        let (folder, manifest) = try fleet(6)
        defer { try? FileManager.default.removeItem(at: folder) }
        var done: [String] = []
        for shard in 0..<3 {
            let run = try await Binary.run(["annotate", "--batch", manifest, "--shard", "\(shard)/3"] + Self.common)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("batch: 2 of 6 rows of \(manifest) (shard \(shard)/3"), "\(run.stderr)")
            let outputs = run.stdout.split(separator: "\n").map { ($0 as NSString).lastPathComponent }
            #expect(outputs == ["clip\(shard).mjpeg", "clip\(shard + 3).mjpeg"])
            done += outputs
        }
        #expect(done.sorted() == (0..<6).map { "clip\($0).mjpeg" })
        // One run over the whole manifest, elsewhere: the same bytes.
        let whole = folder.appendingPathComponent("whole")
        try FileManager.default.createDirectory(at: whole, withIntermediateDirectories: true)
        let copy = whole.appendingPathComponent("fleet.csv").path
        try String(contentsOfFile: manifest, encoding: .utf8)
            .replacingOccurrences(of: "clip", with: "../clip").replacingOccurrences(
                of: "track.gpx", with: "../track.gpx"
            )
            .replacingOccurrences(of: "out/../clip", with: "out/clip")
            .write(toFile: copy, atomically: true, encoding: .utf8)
        let one = try await Binary.run(["annotate", "--batch", copy] + Self.common)
        #expect(one.status == 0, "\(one.stderr)")
        for index in 0..<6 {
            let sharded = FileManager.default.contents(
                atPath: folder.appendingPathComponent("out/clip\(index).mjpeg").path)
            let single = FileManager.default.contents(
                atPath: whole.appendingPathComponent("out/clip\(index).mjpeg").path)
            #expect(sharded != nil && sharded == single, "row \(index)")
        }
    }

    @Test(
        "--offset auto for every row: a clip against a logger an hour off is matched and placed; a clip with no other track fails alone (64)"
    )
    func offsetAuto() async throws {
        let folder = try PackagePaths.temporaryDirectory("batch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = PackagePaths.sample("video/karma.mp4")
        // The logger's track: the clip's own fixes as ExifTool reads them, written 3602 s later.
        try await ExifToolGPSTrack(video: clip).gpx(ahead: 3602).write(
            to: folder.appendingPathComponent("logger.gpx"), atomically: true, encoding: .utf8)
        let manifest = folder.appendingPathComponent("flights.csv").path
        // (A path in a row's options is the row's own, not resolved against the manifest's folder.)
        let sidecarPath = folder.appendingPathComponent("matched.jsonl").path
        try "footage,track,output,options\n\(clip),logger.gpx,matched.y4m,--sidecar \(sidecarPath)\n\(clip),,own.y4m,\n"
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let run = try await Binary.run([
            "annotate", "--batch", manifest, "--offset", "auto", "--pois",
            PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson"), "--hfov", "118", "--max-distance",
            "40000",
        ])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "row 0: note: time: the first frame at 2017-04-17T19:27:57.340Z from the video's GPS clock"),
            "\(run.stderr)")
        #expect(run.stderr.contains("+3602.0 s (--offset auto) found by matching"), "\(run.stderr)")
        #expect(run.stderr.contains("row 0: annotate: 362 frames in, 362 out (362 annotated"), "\(run.stderr)")
        #expect(run.stderr.contains("row 1: error: --offset auto matches the footage's own GPS with a separate track"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("own.y4m").path))
        // The sidecar's first frame: the GPS clock's 19:27:57.340 on the logger's clock.
        let sidecar = try String(contentsOfFile: sidecarPath, encoding: .utf8)
        let first = try #require(
            try JSONSerialization.jsonObject(with: Data((sidecar.split(separator: "\n").first ?? "").utf8))
                as? [String: Any])
        let time = try #require((first["time"] as? String).flatMap { UTCTime.parse($0) })
        let expected = try #require(UTCTime.parse("2017-04-17T19:27:57.340Z")).addingTimeInterval(3602)
        #expect(abs(time.timeIntervalSince(expected)) < 0.01, "\(first)")
    }

    @Test("JSON lines: the GoPro clip with its own GPS (no track) and options of its own, to an MP4")
    func jsonLines() async throws {
        let folder = try PackagePaths.temporaryDirectory("batch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("rides.jsonl").path
        let row: [String: Any] = [
            "footage": PackagePaths.sample("video/max-heromode.mp4"), "output": "ride.mp4",
            "options": [
                "--pois", PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson"), "--hfov", "118",
                "--heading-from-course", "--max-distance", "40000",
            ],
        ]
        try (String(decoding: try JSONSerialization.data(withJSONObject: row), as: UTF8.self) + "\n")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let run = try await Binary.run(["annotate", "--batch", manifest])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("row 0: annotate: 315 frames in, 315 out (315 annotated"), "\(run.stderr)")
        #expect(
            run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == folder.appendingPathComponent("ride.mp4").path
        )
    }

    @Test(
        "a malformed manifest names the file, the line and what is wrong (65); bad options are 64",
        arguments: [
            ("footage,track,output\nclip0.mjpeg,track.gpx\n", 65, "line 2: 2 fields, but the header names 3 columns"),
            ("footage,camera,output\n", 65, "line 1: the header names a column 'camera'"),
            ("footage,output\n\"clip0.mjpeg,out.mjpeg\n", 65, "line 2: a quoted field is not closed"),
            (
                "footage,output\nclip0.mjpeg,frames/%05n.jpg\n", 65,
                "line 2: output 'frames/%05n.jpg': a batch row writes one file"
            ),
            (
                "footage,output\nclip0.mjpeg,v4l2:/dev/video10\n", 65,
                "line 2: output 'v4l2:/dev/video10': a virtual camera plays one recording at a time"
            ),
            ("footage,output\na.mjpeg,o.mjpeg\nb.mjpeg,o.mjpeg\n", 65, "line 3: output"),
            ("{\"footage\": \"a.mjpeg\", \"out\": \"o.mjpeg\"}\n", 65, "line 1: unknown key 'out'"),
            (
                "{\"footage\": \"a.mjpeg\", \"output\": \"o.mjpeg\", \"options\": \"--minimap\"}\n", 65,
                "line 1: options must be an array of strings"
            ),
            ("footage,output,options\na.mjpeg,o.mjpeg,--output x.mjpeg\n", 65, "line 2: options may not give --output"),
        ])
    func malformed(text: String, status: Int32, message: String) async throws {
        let folder = try PackagePaths.temporaryDirectory("batch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("fleet.csv").path
        try text.write(toFile: manifest, atomically: true, encoding: .utf8)
        let run = try await Binary.run(["annotate", "--batch", manifest] + Self.common)
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.contains("\(manifest): \(message)"), "\(run.stderr)")
    }

    @Test("usage: --shard out of range, footage beside --batch, --output with --batch (64)")
    func usage() async throws {
        let (folder, manifest) = try fleet(1)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (arguments, message) in [
            (["--shard", "3/3"], "--shard 3/3: K must be from 0 to N-1"),
            (["--shard", "x"], "--shard must be K/N"),
            (["--output", "o.mjpeg"], "--output is a manifest column with --batch"),
            ([PackagePaths.sample("footage/harbour.mjpeg")], "--batch takes its footage from the manifest"),
        ] {
            let run = try await Binary.run(["annotate", "--batch", manifest] + arguments + Self.common)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }
}
