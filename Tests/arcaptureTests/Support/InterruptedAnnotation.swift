import Foundation
import TestSupport
import Testing

/// `arcapture annotate -` stopped by Ctrl-C mid-run, as a user stops it: the footage comes through
/// a pipe the test holds open, as from a camera or ffmpeg, so the signal arrives while arcapture
/// waits for more, however fast this machine annotates.
enum InterruptedAnnotation {
    /// Runs `annotate -` with `arguments`, writes `footage` into its stdin, sends SIGINT once the
    /// output's temporary file (`.NAME.arcapture-HOST-PID.tmp` beside it) holds more than `bytes`, and closes
    /// the input once arcapture has said it saw the signal (before that, the end of input would
    /// be a plain end). Returns the exit status and what it printed on stderr.
    static func run(arguments: [String], footage: Data, output: String, bytes: Int = 0) throws -> (
        status: Int32, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["annotate", "-"] + arguments + ["--output", output]
        let input = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let stderrText = StreamText(errors.fileHandleForReading)
        try process.run()
        input.fileHandleForWriting.write(footage)
        let url = URL(fileURLWithPath: output)
        let folder = url.deletingLastPathComponent().path
        // `.NAME.arcapture-HOST-PID.tmp`: found by its name and this process, whatever the host.
        let temporary = {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).first {
                $0.hasPrefix(".\(url.lastPathComponent).arcapture-")
                    && $0.hasSuffix("-\(process.processIdentifier).tmp")
            }.map { "\(folder)/\($0)" }
        }
        #expect(
            waitUntil {
                guard let path = temporary() else { return false }
                return ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int ?? 0) > bytes
            })
        process.interrupt()  // SIGINT, as Ctrl-C sends
        #expect(waitUntil { stderrText.value.contains("stopping (Ctrl-C)") }, "\(stderrText.value)")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return (process.terminationStatus, stderrText.finish())
    }
}
