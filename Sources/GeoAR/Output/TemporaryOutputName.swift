import ArcaptureCore
import Foundation

/// The hidden name an output has while it is written (`.ride.mp4.arcapture-pi4-12345.tmp`), and
/// the removal of those a killed run left (`kill -9`, the OOM killer, a power cut).
///
/// The name carries the host as well as the process: on a folder shared between machines (NFS
/// under a Slurm fleet) a PID means nothing on another host, so only this host's names are ever
/// judged, and only those whose process no longer runs are removed. A live process with that PID
/// keeps its name, whatever it is (a reused PID costs a leftover, never someone's output). Names of
/// other patterns, earlier versions' `.NAME.PID.tmp` among them, are left alone.
///
/// A folder is cleaned once per process, the first time an output is written in it: a time-lapse
/// writing thousands of frames into one folder reads it once.
public enum TemporaryOutputName {
    /// The marker between an output's name and its host and process.
    private static let marker = ".arcapture-"

    /// This host's name as the temporary names carry it: the first label of `gethostname(2)`,
    /// without characters that a name could not hold.
    static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let label = name.split(separator: ".").first.map(String.init) ?? ""
        let kept = String(
            label.unicodeScalars.filter {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
            })
        return kept.isEmpty ? "localhost" : kept
    }()

    /// The hidden name, in the same folder, that `fileName` is written under until it appears.
    static func hidden(for fileName: String) -> String {
        ".\(fileName)\(marker)\(host)-\(ProcessInfo.processInfo.processIdentifier).tmp"
    }

    /// The host and process of a hidden name of this pattern; nil for any other name.
    static func owner(of entry: String) -> (host: String, process: Int32)? {
        guard entry.hasPrefix("."), entry.hasSuffix(".tmp"),
            let range = entry.range(of: marker, options: .backwards)
        else { return nil }
        let tail = entry[range.upperBound..<entry.index(entry.endIndex, offsetBy: -4)]
        guard let dash = tail.lastIndex(of: "-"), let process = Int32(tail[tail.index(after: dash)...]),
            process > 0, dash > tail.startIndex
        else { return nil }
        return (String(tail[..<dash]), process)
    }

    private static let state = Locked(State())

    private struct State {
        var cleaned: Set<String> = []
        var removed: [String] = []
    }

    /// Removes, once per process, the hidden names in `directory` that a run of this host which no
    /// longer runs left. Best effort: a name that cannot be removed stays.
    static func removeLeftovers(in directory: String) {
        let first = state.withLock { $0.cleaned.insert(directory).inserted }
        guard first, case .success(let entries) = FileSystem.entries(of: directory) else { return }
        var removed: [String] = []
        for entry in entries {
            guard let owner = owner(of: entry), owner.host == host, !isRunning(owner.process) else { continue }
            let path = directory == "/" ? "/\(entry)" : "\(directory)/\(entry)"
            if case .success = SystemCall.retryingInterrupts("unlink", { unlink(path) }) { removed.append(path) }
        }
        if !removed.isEmpty { state.withLock { $0.removed += removed } }
    }

    /// Whether process `id` runs on this host: `kill(2)` with no signal, which says `ESRCH` only
    /// when there is none (`EPERM` is a process of another user: running).
    private static func isRunning(_ id: Int32) -> Bool {
        if id == ProcessInfo.processInfo.processIdentifier { return true }
        switch SystemCall.retryingInterrupts("kill", { kill(id, 0) }) {
        case .success: return true
        case .failure(let error): return error.errno.rawValue != ESRCH
        }
    }

    /// The leftovers removed so far (their paths), each given once: the caller says so.
    public static func takeRemovedLeftovers() -> [String] {
        state.withLock { state in
            defer { state.removed = [] }
            return state.removed
        }
    }
}
