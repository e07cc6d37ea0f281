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

    @Test("the refusal names the file and says --force, with status 73")
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
            #expect(error.description == "cannot write '\(path)': it exists; use --force to overwrite it")
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
}
