import Foundation
import TestSupport
import Testing

@testable import GeoAR

/// Hidden outputs a killed run left: which names are ours, and which of those are removed.
@Suite("Temporary output names")
struct TemporaryOutputNameTests {
    @Test("a hidden name gives back its host and process; other names give nothing")
    func owners() {
        let hidden = TemporaryOutputName.hidden(for: "ride.v2.mp4")
        #expect(hidden.hasPrefix(".ride.v2.mp4.arcapture-") && hidden.hasSuffix(".tmp"))
        let owner = TemporaryOutputName.owner(of: hidden)
        #expect(owner?.host == TemporaryOutputName.host)
        #expect(owner?.process == ProcessInfo.processInfo.processIdentifier)
        #expect(
            TemporaryOutputName.owner(of: ".a.jpg.arcapture-pi-4b-2-77.tmp").map { "\($0.host) \($0.process)" }
                == "pi-4b-2 77")
        for other in [
            "ride.mp4", ".ride.mp4.123.tmp", ".ride.mp4.arcapture-pi.tmp", ".ride.mp4.arcapture--12.tmp",
            ".ride.mp4.arcapture-pi-0.tmp", ".ride.mp4.arcapture-pi-x.tmp", "ride.mp4.arcapture-pi-12.tmp",
        ] {
            #expect(TemporaryOutputName.owner(of: other) == nil, "\(other)")
        }
    }

    @Test("removed: this host's names whose process has ended; kept: live ones, other hosts', other patterns")
    func removal() throws {
        let directory = try PackagePaths.temporaryDirectory("leftovers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let host = TemporaryOutputName.host
        // No process has the number pid_max (numbers run below it).
        let limit = try #require(
            Int32(
                try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        let ended = ".ride.mp4.arcapture-\(host)-\(limit).tmp"
        let kept = [
            ".ride.mp4.arcapture-\(host)-1.tmp",  // init runs
            ".ride.mp4.arcapture-\(host)-\(ProcessInfo.processInfo.processIdentifier).tmp",  // this one
            ".ride.mp4.arcapture-\(host)x-\(limit).tmp",  // another host's: its PIDs mean nothing here
            ".ride.mp4.\(limit).tmp",  // an earlier version's pattern, without its host
            "ride.mp4",
        ]
        for name in kept + [ended] {
            try Data("x".utf8).write(to: directory.appendingPathComponent(name))
        }
        _ = TemporaryOutputName.takeRemovedLeftovers()
        TemporaryOutputName.removeLeftovers(in: directory.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == kept.sorted())
        #expect(TemporaryOutputName.takeRemovedLeftovers() == [directory.appendingPathComponent(ended).path])
        #expect(TemporaryOutputName.takeRemovedLeftovers().isEmpty, "each said once")
        // Once per folder per process: one that appears later stays until the next run.
        try Data("x".utf8).write(to: directory.appendingPathComponent(ended))
        TemporaryOutputName.removeLeftovers(in: directory.path)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(ended).path))
    }

    @Test(
        "a stopped run's name",
        arguments: [
            ("out/ride.mp4", "out/ride.partial.mp4"), ("ride.tar.gz", "ride.tar.partial.gz"), ("log", "log.partial"),
            (".hidden", ".hidden.partial"), ("/a.b/c", "/a.b/c.partial"),
        ])
    func partialName(path: String, partial: String) {
        #expect(AtomicFileWriter.partialName(of: path) == partial)
    }
}
