import Foundation
import Glibc
import TestSupport
import Testing

@testable import Positioning

/// The serial NMEA source on a real pseudo-terminal: the test holds the master side, as a receiver
/// would hold the wire, and writes a real receiver log into it.
@Suite("NMEA from a serial port")
struct NMEASerialLocationSourceTests {
    @Test("fixes from a receiver log arrive, the baud rate is set, a damaged line is a warning")
    func readsPort() throws {
        let terminal = try PseudoTerminal()
        let path = terminal.path
        let source = try #require(NMEASerialLocationSource(path: path, baudRate: 4800))
        let (recorder, end) = LocationEventRecorder.started(source)
        defer { end() }
        #expect(recorder.wait(seconds: 20) { $0.statuses.contains(.noFix) }, "\(recorder.transcriptText)")

        // The port is raw at 4800 baud now.
        let slave = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
        try #require(slave >= 0)
        var settings = termios()
        #expect(tcgetattr(slave, &settings) == 0)
        close(slave)
        #expect(cfgetispeed(&settings) == speed_t(B4800))
        #expect(settings.c_lflag & tcflag_t(ICANON | ECHO) == 0)

        let log = try String(contentsOfFile: PackagePaths.sample("nmea/haicom-305N.log"), encoding: .utf8)
        let lines = log.split(separator: "\n").filter { $0.hasPrefix("$") }
        let expected = try NMEALog.load(PackagePaths.sample("nmea/haicom-305N.log"))
        // Damage one sentence the way a noisy line does: a changed byte, the checksum kept.
        var damaged = lines.map(String.init)
        let victim = try #require(damaged.firstIndex { $0.hasPrefix("$GPGSV") })
        damaged[victim] = damaged[victim].replacingOccurrences(of: ",", with: ";", options: [], range: nil)
        for chunk in stride(from: 0, to: damaged.count, by: 20) {
            terminal.write(damaged[chunk..<min(chunk + 20, damaged.count)].joined(separator: "\r\n") + "\r\n")
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(
            recorder.wait(seconds: 30) { $0.fixes.count == expected.fixes.count },
            "\(recorder.fixes.count) of \(expected.fixes.count)")
        #expect(recorder.fixes.map(\.time) == expected.fixes.map(\.time))
        #expect(recorder.fixes.allSatisfy { $0.receivedMonotonicNanoseconds != nil })
        #expect(
            recorder.all.contains { if case .warning(let text) = $0 { text.hasPrefix("bad checksum") } else { false } })
        #expect(recorder.statuses.contains(.fix(.threeD)))
    }

    @Test("a missing port is unavailable with the reason, and is found when it appears")
    func missingPort() throws {
        let directory = try PackagePaths.temporaryDirectory("serial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("gps").path
        let source = try #require(NMEASerialLocationSource(path: link))
        let (recorder, end) = LocationEventRecorder.started(source)
        defer { end() }
        #expect(
            recorder.wait(seconds: 20) {
                $0.statuses.contains(.unavailable("cannot open \(link): No such file or directory"))
            }, "\(recorder.transcriptText)")
        // The receiver is plugged in: its node appears (here, a link to a fresh pseudo-terminal).
        let terminal = try PseudoTerminal()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: terminal.path)
        #expect(recorder.wait(seconds: 30) { $0.statuses.last == .noFix }, "\(recorder.transcriptText)")
    }

    @Test("unsupported baud rates are refused")
    func baudRates() {
        #expect(NMEASerialLocationSource(path: "/dev/ttyUSB0", baudRate: 1234) == nil)
        #expect(NMEASerialLocationSource(path: "/dev/ttyUSB0")?.name == "/dev/ttyUSB0@9600")
    }
}
