import Foundation

/// Writes a file so that it appears whole or not at all: data goes to a temporary file in the same
/// directory, which `commit()` flushes to disk and renames over the destination.
///
/// A crash, Ctrl-C or full disk leaves at most a hidden temporary file, never a half-written output.
/// A writer made with `replacing: false` never replaces a file that exists when it commits (one
/// made since the run started included): its commit fails instead, and the file is left as it was.
///
/// - Important: Not thread-safe; one writer belongs to one queue.
public final class AtomicFileWriter {
    /// The file that appears on ``commit()``.
    public let destination: String
    /// Whether ``commit()`` may replace an existing file at ``destination`` (`--force`).
    public let replacing: Bool
    private let temporary: String
    private let handle: FileHandle
    private var finished = false
    /// Bytes written, and how many of them have been handed to the disk early (see ``write(_:)``).
    private var written = 0
    private var handedOver = 0
    /// Large outputs are handed to the disk every this many bytes.
    private static let writebackStep = 8 << 20

    /// Creates the temporary file next to `destination`.
    ///
    /// - Parameters:
    ///   - destination: the file that appears on ``commit()``.
    ///   - replacing: whether ``commit()`` may replace a file that exists then.
    /// - Throws: ``OutputError`` naming the path when the directory is not writable.
    public init(destination: String, replacing: Bool = true) throws(OutputError) {
        self.destination = destination
        self.replacing = replacing
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
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(OutputError) in try write(buffer) } }
        try result.get()
    }

    /// Appends the bytes in `bytes`.
    ///
    /// A large output (annotated footage: gigabytes) is handed to the disk as it grows, a few
    /// mebibytes at a time (`POSIX_FADV_DONTNEED` starts writing back what was written, and drops
    /// what is already on disk from the page cache): ``commit()``'s flush then waits for the last
    /// few mebibytes instead of all of it, and hours of footage do not push everything else out of
    /// memory.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw OutputError(path: destination, reason: Self.writeFailure(error), kind: .write)
        }
        written += bytes.count
        if written - handedOver >= Self.writebackStep {
            // Advice only: a failure changes nothing about the data, so it is not an error.
            _ = posix_fadvise(handle.fileDescriptor, 0, off_t(written), POSIX_FADV_DONTNEED)
            handedOver = written
        }
    }

    /// Flushes the data to disk and renames the temporary file to ``destination``.
    public func commit() throws(OutputError) {
        guard !finished else { return }
        finished = true
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw OutputError(path: destination, reason: Self.writeFailure(error), kind: .write)
        }
        let failure = replacing ? (rename(temporary, destination) == 0 ? nil : errno) : placeWithoutReplacing()
        if let failure {
            unlink(temporary)
            throw OutputError(
                path: destination,
                reason: failure == EEXIST
                    ? "it exists; use --force to overwrite it"
                    : "cannot create the file (\(String(cString: strerror(failure))))")
        }
    }

    /// Puts the temporary file at ``destination`` unless a file is there, atomically: a hard link
    /// is made (which fails with `EEXIST` when the name is taken) and the temporary name removed.
    /// On filesystems without hard links (FAT on a USB stick) the name is checked first, then
    /// renamed to. Returns the failure's errno.
    private func placeWithoutReplacing() -> Int32? {
        if link(temporary, destination) == 0 {
            unlink(temporary)
            return nil
        }
        let failure = errno
        guard failure == EPERM || failure == ENOTSUP || failure == EOPNOTSUPP else { return failure }
        if access(destination, F_OK) == 0 { return EEXIST }
        return rename(temporary, destination) == 0 ? nil : errno
    }

    /// Names a failed write, saying so plainly when the disk is full.
    private static func writeFailure(_ error: any Error) -> String {
        let code = (error as NSError).code
        if code == Int(ENOSPC) || code == NSFileWriteOutOfSpaceError {
            return "the disk is full (earlier files are complete)"
        }
        return "write failed (\(error.localizedDescription))"
    }

    /// Removes the temporary file; the destination is left as it was.
    public func discard() {
        guard !finished else { return }
        finished = true
        try? handle.close()
        unlink(temporary)
    }
}
