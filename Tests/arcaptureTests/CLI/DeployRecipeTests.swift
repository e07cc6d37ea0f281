import Foundation
import TestSupport
import Testing

/// The fleet recipes in deploy/, run for real where this machine can: the Slurm job array on a
/// one-node cluster the test starts (Debian's slurm-wlm and munge), GNU parallel's shards; the
/// Kubernetes Indexed Job is checked for structure only (no cluster here).
@Suite("deploy/ recipes: Slurm, GNU parallel, Kubernetes", .serialized)
struct DeployRecipeTests {
    /// Six copies of the harbour clip with its track: four to MJPEG (every other with a minimap),
    /// two to MP4; the harbour options every row shares.
    private func fleet() throws -> (folder: URL, manifest: String, common: [String]) {
        let folder = try PackagePaths.temporaryDirectory("fleet")
        for index in 0..<6 {
            try FileManager.default.copyItem(
                atPath: PackagePaths.sample("footage/harbour.mjpeg"),
                toPath: folder.appendingPathComponent("clip\(index).mjpeg").path)
        }
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("footage/harbour.gpx"), toPath: folder.appendingPathComponent("track.gpx").path)
        let rows = (0..<6).map { index in
            "clip\(index).mjpeg,track.gpx,out/ride\(index).\(index < 4 ? "mjpeg" : "mp4"),\(index % 2 == 1 ? "--minimap" : "")"
        }
        let manifest = folder.appendingPathComponent("fleet.csv").path
        try (["footage,track,output,options"] + rows).joined(separator: "\n")
            .appending("\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        return (folder, manifest, AnnotateBatchTests.common)
    }

    /// The outputs of one `annotate --batch` on this machine, moved to single/ to compare with.
    private func singleRun(_ folder: URL, _ manifest: String, _ common: [String]) async throws -> [String: Data] {
        let run = try await Binary.run(["annotate", "--batch", manifest] + common)
        #expect(run.status == 0, "\(run.stderr)")
        let out = folder.appendingPathComponent("out")
        var outputs: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            outputs[name] = try Data(contentsOf: out.appendingPathComponent(name))
        }
        try FileManager.default.removeItem(at: out)
        #expect(outputs.count == 6)
        return outputs
    }

    private func compare(_ folder: URL, with single: [String: Data]) throws {
        for (name, bytes) in single.sorted(by: { $0.key < $1.key }) {
            let path = folder.appendingPathComponent("out/\(name)").path
            #expect(FileManager.default.contents(atPath: path) == bytes, "\(name) differs from the single run's")
        }
    }

    @Test("Slurm: 6 recordings over a 3-task job array, every output byte-identical to a run on one machine")
    func slurmJobArray() async throws {
        let (folder, manifest, common) = try fleet()
        defer { try? FileManager.default.removeItem(at: folder) }
        let single = try await singleRun(folder, manifest, common)
        let cluster = try await OffPool.run { try SlurmCluster(folder: folder.appendingPathComponent("slurm")) }
        defer { cluster.stop() }
        let script = PackagePaths.root.appendingPathComponent("deploy/slurm/annotate-array.sbatch").path
        // sbatch passes its environment on to the tasks: ARCAPTURE names the binary under test.
        setenv("ARCAPTURE", Binary.path, 1)
        let submitted = try await OffPool.run {
            try cluster.run(
                "/usr/bin/sbatch", ["--wait", "--array=0-2", "--chdir=\(folder.path)", script, manifest] + common)
        }
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("arcapture-annotate-")
        }.sorted()
        let logText = try logs.map {
            "== \($0)\n" + (try String(contentsOfFile: folder.appendingPathComponent($0).path, encoding: .utf8))
        }
        .joined(separator: "\n")
        print("sbatch: \(submitted.stdout)\(submitted.stderr)\n\(logText)")
        #expect(submitted.status == 0, "\(submitted.stderr)\n\(logText)\n\(cluster.log("slurmctld.log").suffix(2000))")
        #expect(logs.count == 3, "one log per array task: \(logs)")
        try compare(folder, with: single)
        // Each task did its shard's two rows, as its report says.
        for task in 0..<3 {
            let report = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: folder.appendingPathComponent("reports/shard-\(task).json")))
                    as? [String: Any])
            #expect(report["shard"] as? String == "\(task)/3")
            let rows = (report["rows"] as? [[String: Any]] ?? []).compactMap { $0["index"] as? Int }
            #expect(rows == [task, task + 3] && report["done"] as? Int == 2, "\(report)")
        }
        // Submitted again, as after a preemption: every row is skipped, nothing rewritten.
        let out = folder.appendingPathComponent("out").path
        let dates = {
            try FileManager.default.contentsOfDirectory(atPath: out).sorted().map {
                try FileManager.default.attributesOfItem(atPath: "\(out)/\($0)")[.modificationDate] as? Date
            }
        }
        let before = try dates()
        let again = try await OffPool.run {
            try cluster.run(
                "/usr/bin/sbatch", ["--wait", "--array=0-2", "--chdir=\(folder.path)", script, manifest] + common)
        }
        #expect(again.status == 0, "\(again.stderr)")
        for task in 0..<3 {
            let report = try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent("reports/shard-\(task).json")))
            #expect((report as? [String: Any])?["skipped"] as? Int == 2, "\(report)")
        }
        #expect(try dates() == before)
    }

    @Test("GNU parallel: 2 shards of the 6 recordings, every output byte-identical to a run on one machine")
    func gnuParallel() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/parallel"), "apt-get install parallel")
        let (folder, manifest, common) = try fleet()
        defer { try? FileManager.default.removeItem(at: folder) }
        let single = try await singleRun(folder, manifest, common)
        let run = try await ProcessRunner.run(
            executable: "/bin/bash",
            arguments: [
                PackagePaths.root.appendingPathComponent("deploy/parallel/annotate-parallel.sh").path, "2",
                manifest,
            ]
                + common.filter { $0 != "--workers" && $0 != "1" },
            environment: ProcessInfo.processInfo.environment.merging(["ARCAPTURE": Binary.path]) { $1 })
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("batch: 3 of 6 rows"), "\(run.stderr)")
        try compare(folder, with: single)
    }

    @Test("Kubernetes: an Indexed Job whose pods each take their shard (structure only: no cluster here)")
    func kubernetesIndexedJob() async throws {
        let path = PackagePaths.root.appendingPathComponent("deploy/kubernetes/annotate-indexed-job.yaml").path
        let parsed = try await ProcessRunner.run(
            executable: "/usr/bin/python3",
            arguments: ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", path])
        #expect(parsed.status == 0, "python3-yaml reads it: \(parsed.stderr)")
        let job = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])
        #expect(job["apiVersion"] as? String == "batch/v1" && job["kind"] as? String == "Job")
        let spec = try #require(job["spec"] as? [String: Any])
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        #expect(spec["parallelism"] as? Int == completions)
        let pod = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        #expect(pod["restartPolicy"] as? String == "Never")
        let container = try #require((pod["containers"] as? [[String: Any]])?.first)
        let command = (container["command"] as? [String] ?? []).joined(separator: " ")
        #expect(command.contains("--shard \"$JOB_COMPLETION_INDEX/\(completions)\""), "\(command)")
        #expect(command.contains("arcapture annotate --batch "))
        // The command's arguments are ones annotate takes: its --batch line, run here with a
        // missing manifest, fails on the manifest (66), not on the options (64).
        let arguments = command.split(separator: " ").map(String.init).drop { $0 != "annotate" }.dropFirst()
            .map { $0.replacingOccurrences(of: "\"$JOB_COMPLETION_INDEX/\(completions)\"", with: "0/\(completions)") }
            .map {
                $0.replacingOccurrences(
                    of: "\"/fleet/reports/shard-$JOB_COMPLETION_INDEX.json\"", with: "/nonexistent/r.json")
            }
        let run = try await Binary.run(["annotate"] + arguments)
        #expect(run.status == 66, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains("/fleet/fleet.csv: no such file"), "\(run.stderr)")
    }
}
