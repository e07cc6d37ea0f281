import Foundation
import GeoAR

/// `arcapture-bench --durability [FOLDER]`: what making each output survive a power cut costs per
/// file and per log line, on the disk FOLDER is on (default .build/bench-durability; point it at a
/// board's SD card or USB stick to see that medium's figure).
///
/// Per 100 kB file (a 720p frame's JPEG): a plain write and close (no durability, the floor); the
/// temporary file flushed and renamed (what a commit did before it flushed the folder too); and
/// ``AtomicFileWriter`` as it is (the file flushed, renamed, the folder flushed). Per log line: a
/// plain append against ``JSONLinesLog``'s (each line flushed). Medians, with the ratio to the floor.
enum DurabilityBench {
    static func run(folder: String) throws {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = [UInt8](repeating: 0x5A, count: 100_000)
        var counter = 0
        func next() -> String {
            counter += 1
            return "\(folder)/frame-\(counter).jpg"
        }
        let plain = median(repetitions: 60) {
            let fd = open(next(), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        let renamed = median(repetitions: 60) {
            let name = next()
            let fd = open(name + ".tmp", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            fsync(fd)
            close(fd)
            rename(name + ".tmp", name)
        }
        let atomic = try median(repetitions: 60) {
            let writer = try AtomicFileWriter(destination: next())
            try writer.write(bytes)
            try writer.commit()
        }
        let line = "{\"capture_time\":\"2026-12-01T19:00:00.000Z\",\"file\":\"lapse-0001.jpg\",\"sequence\":1}\n"
        let plainLog = open("\(folder)/plain.jsonl", O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        let plainLine = median(repetitions: 200) { _ = write(plainLog, line, line.utf8.count) }
        close(plainLog)
        let log = try JSONLinesLog(path: "\(folder)/log.jsonl")
        let durableLine = try median(repetitions: 200) { try log.append(line: line) }
        log.close()
        func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
        print("durability on \(folder) (medians):")
        print("  100 kB file, plain write:                 \(ms(plain))")
        print(
            "  + fsync and rename (the commit before):   \(ms(renamed))  (\(String(format: "%.1f", renamed / plain))x)")
        print("  + the folder flushed (AtomicFileWriter):  \(ms(atomic))  (\(String(format: "%.1f", atomic / plain))x)")
        print("  log line, plain append:                   \(ms(plainLine))")
        print(
            "  log line flushed (JSONLinesLog):          \(ms(durableLine))  (\(String(format: "%.1f", durableLine / plainLine))x)"
        )
    }
}
