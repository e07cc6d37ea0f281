import Foundation
import GeoAR
import TestSupport
import Testing

/// Atomic outputs, replacing or not.
@Suite("Atomic file writer")
struct AtomicFileWriterTests {
    private func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test("without replacing, a file made while writing is kept and the commit fails; no temporary file stays")
    func keepsExisting() throws {
        let directory = try PackagePaths.temporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.txt").path
        let writer = try AtomicFileWriter(destination: path, replacing: false)
        try writer.write(Array("new".utf8))
        try "someone else's".write(toFile: path, atomically: false, encoding: .utf8)  // appears meanwhile
        #expect(throws: OutputError.self) { try writer.commit() }
        do {
            try writer.commit()
        } catch {
            Issue.record("a second commit after a failed one does nothing: \(error)")
        }
        #expect(try contents(path) == "someone else's")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"])
    }

    @Test("the refusal names the file and says it was not to be replaced (the CLI says --force), with status 73")
    func refusal() throws {
        let directory = try PackagePaths.temporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.txt").path
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let writer = try AtomicFileWriter(destination: path, replacing: false)
        do {
            try writer.commit()
            Issue.record("committed over an existing file")
        } catch {
            #expect(error.description == "cannot write '\(path)': it exists, and replacing it was not asked for")
            #expect(error.kind == .create)
        }
    }

    @Test("without replacing, a new name is created whole; replacing (--force) replaces")
    func createsAndReplaces() throws {
        let directory = try PackagePaths.temporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.txt").path
        let fresh = try AtomicFileWriter(destination: path, replacing: false)
        try fresh.write(Array("first".utf8))
        try fresh.commit()
        #expect(try contents(path) == "first")
        let forced = try AtomicFileWriter(destination: path, replacing: true)
        try forced.write(Array("second".utf8))
        try forced.commit()
        #expect(try contents(path) == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.txt"])
    }

    @Test("checkCanCreate tries an existing folder with a twin it removes, and makes no missing folder")
    func checkCanCreate() throws {
        let directory = try PackagePaths.temporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: directory) }
        try AtomicFileWriter.checkCanCreate(directory.appendingPathComponent("001.jpg").path)
        try AtomicFileWriter.checkCanCreate(directory.appendingPathComponent("2026/12/01/001.jpg").path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [], "nothing made")
        let file = directory.appendingPathComponent("plain")
        try "x".write(to: file, atomically: false, encoding: .utf8)
        #expect(throws: OutputError.self) { try AtomicFileWriter.checkCanCreate(file.path + "/day/001.jpg") }
        #expect(throws: OutputError.self) { try AtomicFileWriter.checkCanCreate(file.path + "/001.jpg") }
    }

    @Test(
        "a failed write says what the fault is, from its errno",
        arguments: [
            (ENOSPC, "the disk is full"), (EIO, "an I/O error (EIO)"), (EROFS, "read-only"),
            (EFBIG, "too large for the file system"), (EDQUOT, "quota"), (ENXIO, "write failed ("),
        ])
    func writeReasons(errno: Int32, words: String) {
        let error = OutputError(path: "/media/stick/out.mjpeg", writing: errno)
        #expect(error.kind == .write)
        #expect(error.description.hasPrefix("cannot write '/media/stick/out.mjpeg': "))
        #expect(error.reason.contains(words), "\(error.reason)")
        #expect(OutputError(path: "-", writing: errno).description.hasPrefix("cannot write to standard output: "))
        #expect(!OutputError(path: "-", writing: errno).reason.contains("partial"))
    }

    @Test("a full device's error reaches the message, not Foundation's (write to /dev/full)")
    func fullDevice() throws {
        // /dev/full fails every write with ENOSPC: the log's append path, with no small file system.
        let log = try JSONLinesLog(path: "/dev/full")
        #expect {
            try log.append(line: "{}\n")
        } throws: { error in
            // A log keeps the lines before: no claim that nothing is left.
            (error as? OutputError)?.description == "cannot write '/dev/full': the disk is full"
        }
    }
}
