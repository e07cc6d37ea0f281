import Foundation
import Glibc

/// A program run with posix_spawn and waited for with waitpid, its output in files: for the
/// daemons of ``SlurmCluster`` and the Slurm commands, where Foundation's `Process` hung (the
/// launcher of a daemon that forks into the background exited, and `waitUntilExit` never saw it:
/// the test waited with a zombie beside it).
public enum SpawnedCommand {
    /// What a run gave.
    public struct Result: Sendable {
        /// The exit status (128 + the signal when a signal ended it).
        public var status: Int32
        /// What it wrote on stdout.
        public var stdout: String
        /// What it wrote on stderr.
        public var stderr: String
    }

    /// Runs `executable` with `arguments` and `environment` (added to this process's), stdin from
    /// /dev/null, and waits for it.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> Result
    {
        let folder = FileManager.default.temporaryDirectory
        let out = folder.appendingPathComponent("spawn-\(UUID().uuidString).out").path
        let err = folder.appendingPathComponent("spawn-\(UUID().uuidString).err").path
        defer {
            unlink(out)
            unlink(err)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals as a shell leaves them: none blocked (this process blocks some for its own
        // signal sources), all at their defaults.
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw SpawnFailed(description: "\(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SpawnFailed(description: "waitpid \(executable): \(errno)") }
        }
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return Result(status: code, stdout: read(out), stderr: read(err))
    }
}

/// A program could not be started.
public struct SpawnFailed: Error, CustomStringConvertible {
    /// Why.
    public let description: String
}
