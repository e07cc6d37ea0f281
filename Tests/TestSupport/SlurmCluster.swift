import Foundation
import Glibc

/// A real one-node Slurm cluster on this machine (Debian's slurm-wlm and munge), for the tests of
/// the job-array recipe: munged with a key of its own, slurmctld and slurmd, all in a folder of the
/// test's, on free ports, so nothing of the machine's own configuration is used or changed.
/// ``stop()`` ends the three by their pid files.
///
/// The daemons go to the background themselves, as they do on a cluster, and every command runs
/// through ``SpawnedCommand`` rather than Foundation's `Process`, which hung here twice: once with
/// the daemons as `Process` objects in the foreground (the `sinfo` after them was never reaped),
/// once waiting for a daemon's launcher that had exited.
public final class SlurmCluster: @unchecked Sendable {
    /// The cluster's configuration file: give it to Slurm's commands as `SLURM_CONF`.
    public let configuration: String
    private let folder: URL
    /// The daemons' pid files, in the order they started.
    private var pidFiles: [String] = []

    /// Starts munged, slurmctld and slurmd in `folder`, and waits until the node is idle.
    ///
    /// - Throws: ``ProcessRunner/Missing`` when Slurm or munge is not installed; an error with the
    ///   daemons' logs when the node does not come up within 60 s.
    public init(folder: URL) throws {
        for tool in ["/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged", "/usr/bin/sbatch"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw ProcessRunner.Missing(
                tool: (tool as NSString).lastPathComponent, install: "apt-get install slurm-wlm munge")
        }
        self.folder = folder
        for name in ["state", "spool", "log"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        configuration = path("slurm.conf")
        let key = try SpawnedCommand.run(
            "/usr/sbin/mungekey", ["--create", "--keyfile=\(path("munge.key"))", "--force"])
        guard key.status == 0 else { throw SlurmFailed(description: "mungekey: \(key.stderr)") }
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count)
        let hostname =
            String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: ".").first.map(String.init) ?? "localhost"
        let (controllerPort, nodePort) = (try GPSFake.freePort(), try GPSFake.freePort())
        let lines = [
            "ClusterName=arcapture-test", "SlurmctldHost=\(hostname)", "SlurmUser=root", "SlurmdUser=root",
            "SlurmctldPort=\(controllerPort)", "SlurmdPort=\(nodePort)", "AuthType=auth/munge",
            "AuthInfo=socket=\(path("munge.socket"))", "CredType=cred/munge", "StateSaveLocation=\(path("state"))",
            "SlurmdSpoolDir=\(path("spool"))", "SlurmctldPidFile=\(path("slurmctld.pid"))",
            "SlurmdPidFile=\(path("slurmd.pid"))", "SlurmctldLogFile=\(path("log/slurmctld.log"))",
            "SlurmdLogFile=\(path("log/slurmd.log"))", "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none", "AccountingStorageType=accounting_storage/none",
            "MpiDefault=none", "SchedulerType=sched/backfill", "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU", "ReturnToService=2",
            "NodeName=\(hostname) CPUs=\(ProcessInfo.processInfo.activeProcessorCount) State=UNKNOWN",
            "PartitionName=test Nodes=\(hostname) Default=YES MaxTime=INFINITE State=UP",
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: configuration, atomically: true, encoding: .utf8)
        try start(
            "/usr/sbin/munged",
            [
                "--force", "--socket=\(path("munge.socket"))", "--key-file=\(path("munge.key"))",
                "--pid-file=\(path("munged.pid"))", "--log-file=\(path("log/munged.log"))",
                "--seed-file=\(path("munge.seed"))",
            ], pidFile: path("munged.pid"))
        guard waitUntil(seconds: 20, { FileManager.default.fileExists(atPath: path("munge.socket")) }) else {
            stop()
            throw SlurmFailed(description: "munged did not start: \(log("munged.log"))")
        }
        try start("/usr/sbin/slurmctld", ["-c", "-f", configuration], pidFile: path("slurmctld.pid"))
        try start("/usr/sbin/slurmd", ["-f", configuration], pidFile: path("slurmd.pid"))
        let idle = waitUntil(seconds: 60) {
            let state = try? run("/usr/bin/sinfo", ["-h", "-o", "%T"])
            return state?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "idle"
        }
        guard idle else {
            stop()
            throw SlurmFailed(
                description: "the node did not become idle:\n\(log("slurmctld.log"))\n\(log("slurmd.log"))")
        }
    }

    /// Runs one of Slurm's commands (`sbatch`, `sinfo`) against this cluster.
    public func run(_ executable: String, _ arguments: [String]) throws -> SpawnedCommand.Result {
        try SpawnedCommand.run(executable, arguments, environment: ["SLURM_CONF": configuration])
    }

    /// A daemon's log, for messages.
    public func log(_ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent("log/\(name)"), encoding: .utf8)) ?? "(no \(name))"
    }

    /// Ends slurmd, slurmctld and munged, and waits until they are gone.
    public func stop() {
        for file in pidFiles.reversed() {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1
            else { continue }
            kill(pid, SIGTERM)
            if !waitUntil(seconds: 10, { kill(pid, 0) != 0 }) { kill(pid, SIGKILL) }
        }
        pidFiles = []
    }

    deinit { stop() }

    /// Runs a daemon, which forks into the background and writes `pidFile`.
    private func start(_ executable: String, _ arguments: [String], pidFile: String) throws {
        pidFiles.append(pidFile)
        let started = try SpawnedCommand.run(executable, arguments, environment: ["SLURM_CONF": configuration])
        guard started.status == 0, waitUntil(seconds: 20, { FileManager.default.fileExists(atPath: pidFile) }) else {
            stop()
            throw SlurmFailed(description: "\(executable) did not start (\(started.status)): \(started.stderr)")
        }
    }
}

/// The cluster did not come up.
public struct SlurmFailed: Error, CustomStringConvertible {
    /// What happened, with the daemons' logs.
    public let description: String
}
