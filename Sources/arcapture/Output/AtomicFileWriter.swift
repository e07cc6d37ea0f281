import Foundation

/// Writes a file so that it appears whole or not at all: data goes to a temporary file in the same
/// directory, which `commit()` flushes to disk and renames over the destination.
///
/// A crash, Ctrl-C or full disk leaves at most a hidden temporary file, never a half-written output.
///
/// - Important: Not thread-safe; one writer belongs to one queue.
final class AtomicFileWriter {
    /// The file that appears on ``commit()``.
    let destination: String
    private let temporary: String
    private let handle: FileHandle
    private var finished = false

    /// Creates the temporary file next to `destination`.
    ///
    /// - Throws: ``OutputError`` naming the path when the directory is not writable.
    init(destination: String) throws(OutputError) {
        self.destination = destination
        let url = URL(fileURLWithPath: destination)
        let directory = url.deletingLastPathComponent().path
        temporary = "\(directory)/.\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw OutputError(path: destination, reason: "cannot create the file (\(String(cString: strerror(errno))))")
        }
        self.handle = handle
    }

    /// Appends `bytes`.
    func write(_ bytes: [UInt8]) throws(OutputError) {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw OutputError(path: destination, reason: "write failed (\(error.localizedDescription))")
        }
    }

    /// Flushes the data to disk and renames the temporary file to ``destination``.
    func commit() throws(OutputError) {
        guard !finished else { return }
        finished = true
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw OutputError(path: destination, reason: "write failed (\(error.localizedDescription))")
        }
        guard rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw OutputError(path: destination, reason: "cannot create the file (\(reason))")
        }
    }

    /// Removes the temporary file; the destination is left as it was.
    func discard() {
        guard !finished else { return }
        finished = true
        try? handle.close()
        unlink(temporary)
    }
}

/// An output file that could not be written.
struct OutputError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "cannot write '\(path)': \(reason)" }
}
