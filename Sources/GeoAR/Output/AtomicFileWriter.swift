import ArcaptureCore
internal import CFileSystem
import CaptureKit
import Foundation

/// Writes a file so that it appears whole or not at all: data goes to a temporary file in the same
/// directory, which `commit()` flushes to disk and renames over the destination, then flushes the
/// directory, so a committed file survives a power cut.
///
/// A crash, Ctrl-C or full disk leaves at most a hidden temporary file, never a half-written output;
/// the next run that writes into the folder removes those of runs that no longer run
/// (``TemporaryOutputName``).
/// A writer made with `replacing: false` never replaces a file that exists when it commits (one
/// made since the run started included): its commit fails instead, and the file is left as it was.
///
/// A destination that is a device or a pipe (`/dev/null`, a FIFO: see ``OutputPathKind``) is
/// written straight into instead: it has no whole to appear, and renaming over it would turn the
/// node into a regular file. A symbolic link to a file is followed: the file it names is replaced,
/// the link kept.
///
/// - Important: Not thread-safe; one writer belongs to one queue.
public final class AtomicFileWriter {
    /// The file that appears on ``commit(as:)``.
    public let destination: String
    /// Whether ``commit(as:)`` may replace an existing file at ``destination`` (`--force`).
    public let replacing: Bool
    /// Where the data goes until ``commit(as:)``: a hidden twin of ``target``, or the destination
    /// itself when it is written in place.
    private let temporary: String
    /// The file the twin is renamed over: the destination, or the file a symbolic link there names.
    private let target: String
    /// Whether the destination is a device or a pipe, written straight into (nothing renamed, and
    /// nothing ever removed: the node is not ours).
    private let inPlace: Bool
    /// The temporary file's descriptor. Written with write(2) and flushed with fsync(2) rather than
    /// through `FileHandle`, whose errors do not say an I/O error from any other failure.
    private let descriptor: Int32
    private var finished = false
    /// Bytes written, and how many of them have been handed to the disk early (see ``write(_:)``).
    private var written = 0
    private var handedOver = 0
    /// Large outputs are handed to the disk every this many bytes.
    private static let writebackStep = 8 << 20

    /// Whether the destination is a device or a pipe, written straight into (it has no
    /// temporary twin, and nothing is renamed).
    public var isStream: Bool { inPlace }

    /// The temporary file, for a writer that writes it by name (FFmpeg's muxer opens and seeks
    /// it itself); ``commit(as:)`` flushes and renames it all the same. For a destination written in
    /// place (a device, a pipe), the destination itself.
    public var temporaryPath: String { temporary }

    /// Creates the temporary file next to `destination`.
    ///
    /// - Parameters:
    ///   - destination: the file that appears on ``commit(as:)``.
    ///   - replacing: whether ``commit(as:)`` may replace a file that exists then.
    ///   - creatingFolders: whether missing folders on the way to `destination` are made (frames
    ///     named by a template, which may sort them into a folder per day); when not, the error
    ///     names the folder that is missing.
    /// - Throws: ``OutputError`` naming the path when the directory is missing or not writable.
    public init(destination: String, replacing: Bool = true, creatingFolders: Bool = false) throws(OutputError) {
        self.destination = destination
        self.replacing = replacing
        // Found now rather than at the commit, after the work: a folder cannot be replaced.
        switch OutputPathKind(path: destination) {
        case .folder:
            throw OutputError(path: destination, reason: "it is a folder; name a file (in it, or elsewhere)")
        case .unusable(let what):
            throw OutputError(path: destination, reason: "it is \(what), not a file; name a file")
        case .stream:
            let fd = try Self.openInPlace(destination)
            (temporary, target, inPlace, descriptor) = (destination, destination, true, fd)
            return
        case .absent, .file:
            break
        }
        inPlace = false
        target = Self.linkedFile(destination) ?? destination
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        // The folder as the user wrote it, for messages.
        let named = Self.parent(of: destination) ?? "."
        temporary = "\(directory)/\(TemporaryOutputName.hidden(for: url.lastPathComponent))"
        TemporaryOutputName.removeLeftovers(in: directory)
        // open(2) rather than FileManager.createFile, whose errno after a failure is not promised.
        var descriptor = Self.create(temporary)
        if descriptor.failure == ENOENT && creatingFolders {
            try Self.makeFolders(for: destination)
            descriptor = Self.create(temporary)
        }
        guard let fd = descriptor.fd else {
            let failure = descriptor.failure
            throw OutputError(
                path: destination,
                reason: failure == ENOENT || failure == ENOTDIR
                    ? Self.folderProblem(named) : "cannot create the file (\(String(cString: strerror(failure))))")
        }
        self.descriptor = fd
    }

    deinit {
        if !finished { discard() }
    }

    /// The file a symbolic link at `path` names, when it is one to a file that exists; else nil.
    private static func linkedFile(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) else {
            return nil
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether a file can be created where `destination` names one, tried before any work so that
    /// a run whose output cannot be written says so at once (a folder the user may not write, a
    /// read-only file system) instead of after opening the camera or drawing the first frame.
    ///
    /// When the folder exists, a temporary twin is made there and removed; when it does not (a
    /// template's folder per day), nothing is made: the nearest folder that exists must be
    /// writable.
    ///
    /// - Throws: ``OutputError`` (``OutputError/Kind/create``) saying why not.
    public static func checkCanCreate(_ destination: String) throws(OutputError) {
        if OutputPathKind(path: destination) == .stream {
            // Opened only to write: a FIFO's open would wait for its reader.
            guard access(destination, W_OK) == 0 else {
                throw OutputError(
                    path: destination, reason: "cannot write to it (\(String(cString: strerror(errno))))")
            }
            return
        }
        var folder = parent(of: destination) ?? "."
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue {
            try AtomicFileWriter(destination: destination).discard()
            return
        }
        while !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard let up = parent(of: folder) else {
                // A relative name's first folder is missing: the working directory makes it. (Its
                // own check is asked for, not the missing folder's answer, which said "no folder".)
                folder = "."
                _ = FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder)
                break
            }
            folder = up
        }
        if !isFolder.boolValue { throw OutputError(path: destination, reason: "'\(folder)' is not a folder") }
        if access(folder, W_OK | X_OK) != 0 {
            let failure = errno
            throw OutputError(
                path: destination,
                reason: failure == EROFS
                    ? "the file system is read-only"
                    : "cannot create a folder in '\(folder)' (\(String(cString: strerror(failure))))")
        }
    }

    /// Opens a device or a named pipe to write into. A pipe's open waits for a reader, as open(2)
    /// does, but in steps of 50 ms (`O_NONBLOCK` says ENXIO while there is none), so that a stop
    /// ends the wait: a blocking open(2) is not interrupted by a signal the process takes on a
    /// queue, and Ctrl-C left such a run waiting for good.
    ///
    /// - Throws: ``OutputError`` (``OutputError/Kind/stopped`` when ``StopRequest/process`` was
    ///   requested before a reader came).
    static func openInPlace(_ path: String) throws(OutputError) -> Int32 {
        let isPipe = OutputPathKind.isNamedPipe(path)
        while true {
            let flags = O_WRONLY | O_CLOEXEC | (isPipe ? O_NONBLOCK : 0)
            switch SystemCall.retryingInterrupts("open", { open(path, flags) }) {
            case .success(let fd):
                // Writes block again once a reader is there: its pace is the run's.
                if isPipe, case .success(let current) = SystemCall.retryingInterrupts("fcntl", { fcntl(fd, F_GETFL) }) {
                    _ = SystemCall.retryingInterrupts("fcntl") { fcntl(fd, F_SETFL, current & ~O_NONBLOCK) }
                }
                return fd
            case .failure(let error) where isPipe && error.errno.rawValue == ENXIO:
                if StopRequest.process.isRequested {
                    throw OutputError(
                        path: path, reason: "stopped while waiting for a reader to open the pipe; nothing was written",
                        kind: .stopped)
                }
                usleep(50_000)
            case .failure(let error):
                throw OutputError(path: path, reason: "cannot open it for writing (\(error.errno))")
            }
        }
    }

    /// Creates (or truncates) `path` for writing: the descriptor, or the errno.
    private static func create(_ path: String) -> (fd: Int32?, failure: Int32) {
        switch SystemCall.retryingInterrupts("open", { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }) {
        case .success(let fd): (fd, 0)
        case .failure(let error): (nil, error.errno.rawValue)
        }
    }

    /// Makes the folders `path` goes in when they are missing, as for a frame template: a run
    /// that writes `out/%03n.jpg` and `out/frames.jsonl` should not fail for the second.
    ///
    /// - Throws: ``OutputError`` naming the part of the path that is a file, or cannot be made.
    public static func makeFolders(for path: String) throws(OutputError) {
        guard let folder = parent(of: path) else { return }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw OutputError(path: path, reason: folderProblem(folder))
        }
    }

    /// The folder part of `path` as written (`a/b` for `a/b/c`, `/` for `/c`), or nil when it has
    /// none. Written out because `NSString.deletingLastPathComponent` was seen to trap on a
    /// one-component relative path in this toolchain's Foundation.
    static func parent(of path: String) -> String? {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return nil }
        if slash == trimmed.startIndex { return "/" }
        var folder = trimmed[..<slash]
        while folder.count > 1 && folder.hasSuffix("/") { folder = folder.dropLast() }
        return String(folder)
    }

    /// Why no file can be made in `directory`, naming the first part of its path that is missing
    /// or is not a folder (so `out/2026/x.jpg` says which of them to create).
    static func folderProblem(_ directory: String) -> String {
        var path = directory
        var missing: String?
        var isFolder: ObjCBool = false
        while true {
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
                if !isFolder.boolValue { return "'\(path)' is not a folder" }
                break
            }
            missing = path
            guard let up = parent(of: path) else { break }
            path = up
        }
        guard let missing else { return "cannot create a file in '\(directory)'" }
        return "the folder '\(missing)' does not exist"
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
    /// what is already on disk from the page cache): ``commit(as:)``'s flush then waits for the last
    /// few mebibytes instead of all of it, and hours of footage do not push everything else out of
    /// memory.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        try Self.writeAll(bytes, to: descriptor, path: destination, atomic: true)
        written += bytes.count
        if written - handedOver >= Self.writebackStep {
            // Advice only: a failure changes nothing about the data, so it is not an error.
            _ = posix_fadvise(descriptor, 0, off_t(written), POSIX_FADV_DONTNEED)
            handedOver = written
        }
    }

    /// Flushes the data to disk and renames the temporary file to ``destination``, or to
    /// `alternative` (a stopped run's output goes to its ``partialName(of:)``), which it replaces.
    public func commit(as alternative: String? = nil) throws(OutputError) {
        guard !finished else { return }
        finished = true
        let target = alternative ?? self.target
        let destination = alternative ?? self.destination
        let replacing = alternative != nil || self.replacing
        if inPlace {
            // A device or a pipe: what was written is where it goes (fsync(2) says EINVAL to both).
            _ = SystemCall.once("close") { close(descriptor) }
            return
        }
        // fsync(2) is where a disk that fails or fills under delayed allocation first says so.
        if case .failure(let error) = SystemCall.retryingInterrupts("fsync", { fsync(descriptor) }) {
            _ = close(descriptor)
            unlink(temporary)
            throw OutputError(path: destination, writing: error.errno.rawValue, atomic: true)
        }
        let failure = replacing ? (rename(temporary, target) == 0 ? nil : errno) : Self.place(temporary, at: target)
        var flushFailure: SystemCallError?
        if failure == nil {
            if cfs_is_fat(descriptor) {
                // FAT (a USB stick, an SD card) has no atomic rename: the new directory entry gets
                // the file's size and first cluster only when the inode is next written, and the
                // old entry's removal is another sector. Written one after the other (an fsync of
                // the file, then of the folder), a power cut between them left both names on the
                // same clusters, and fsck.fat emptied the final one (scripts/stress-power-loss
                // --fs vfat: 5 of 25 cuts). One syncfs writes the inode and both sectors in one
                // batch.
                if case .failure(let error) = SystemCall.retryingInterrupts("syncfs", { cfs_syncfs(descriptor) }) {
                    flushFailure = error
                }
            } else {
                // Flushed again under its new name, then the folder, for the name itself (ext4
                // keeps a rename only once its journal commits).
                if case .failure(let error) = SystemCall.retryingInterrupts("fsync", { fsync(descriptor) }) {
                    flushFailure = error
                } else {
                    flushFailure = Self.syncFolder(of: target)
                }
            }
        }
        // close(2) is not retried (on Linux the descriptor is gone even when it reports EINTR),
        // and its result changes nothing: the data was flushed above.
        _ = SystemCall.once("close") { close(descriptor) }
        if let failure {
            unlink(temporary)
            throw OutputError(
                path: destination,
                reason: failure == EEXIST
                    ? "it exists, and replacing it was not asked for"
                    : failure == EISDIR
                        ? "it is a folder; name a file (in it, or elsewhere)"
                        : "cannot create the file (\(String(cString: strerror(failure))))")
        }
        if let flushFailure {
            // The file is whole and under its name, but the disk said it could not keep it (EIO
            // from a failing card, ENOSPC from delayed allocation): reported, never dropped, since
            // what a power cut would leave is unknown. The file is left: it may be all there is.
            // The fault is named as a failed write's is: which call reports a dying card (the
            // write, the flush before the rename, or this one) depends on when it starts failing.
            throw OutputError(
                path: destination,
                reason: "flushing it to the disk under its name failed: "
                    + "\(OutputError.reason(writing: flushFailure.errno.rawValue)) (\(flushFailure.call)); "
                    + "the file is there, but may not survive a power cut",
                kind: .write)
        }
    }

    /// Moves the finished file `source` to `destination` on the same file system, replacing a file
    /// there only when `replacing` is set, and flushes the folder so that the new name survives a
    /// power cut: how a batch row's output, written under its partial name, takes its final one.
    ///
    /// - Throws: ``OutputError`` naming `destination` (``OutputError/Kind/create`` when the name is
    ///   taken and `replacing` is not set, or the move fails; ``OutputError/Kind/write`` when the
    ///   folder cannot be flushed).
    public static func move(_ source: String, to destination: String, replacing: Bool) throws(OutputError) {
        if let failure = replacing ? (rename(source, destination) == 0 ? nil : errno) : place(source, at: destination) {
            throw OutputError(
                path: destination,
                reason: failure == EEXIST
                    ? "it exists, and replacing it was not asked for"
                    : "cannot move \(source) there (\(String(cString: strerror(failure))))")
        }
        if let error = syncFolder(of: destination) {
            throw OutputError(
                path: destination,
                reason: "flushing its folder failed: \(OutputError.reason(writing: error.errno.rawValue)) "
                    + "(\(error.call)); the file is there, but may not survive a power cut",
                kind: .write)
        }
    }

    /// Flushes the folder `path` is in, so that the rename that made it appear survives a power
    /// cut: without it, ext4 keeps a renamed file's name only once its journal commits (up to 5 s
    /// later), and a board that loses power meanwhile comes back with the temporary file instead
    /// (seen in scripts/stress-power-loss). What it costs per file is on the bench
    /// (`arcapture-bench --durability`).
    ///
    /// - Returns: the flush's failure; nil when it worked, and when the file system cannot flush a
    ///   folder at all (some FUSE and network ones say EINVAL, read-only ones EROFS): the name is
    ///   there all the same, as safe as that file system makes it.
    static func syncFolder(of path: String) -> SystemCallError? {
        let folder = parent(of: path) ?? "."
        let opened = SystemCall.retryingInterrupts("open") { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard case .success(let fd) = opened else { return nil }
        defer { _ = SystemCall.once("close") { close(fd) } }
        guard case .failure(let error) = SystemCall.retryingInterrupts("fsync", { fsync(fd) }) else { return nil }
        return [EINVAL, EROFS, ENOTSUP, EOPNOTSUPP].contains(error.errno.rawValue) ? nil : error
    }

    /// Puts the file `source` at `target` unless a file is there, atomically: a hard link is made
    /// (which fails with `EEXIST` when the name is taken) and the source's name removed. On file
    /// systems without hard links (FAT on a USB stick) the name is checked first, then renamed to.
    /// Returns the failure's errno.
    private static func place(_ source: String, at target: String) -> Int32? {
        if link(source, target) == 0 {
            unlink(source)
            return nil
        }
        let failure = errno
        guard failure == EPERM || failure == ENOTSUP || failure == EOPNOTSUPP else { return failure }
        if access(target, F_OK) == 0 { return EEXIST }
        return rename(source, target) == 0 ? nil : errno
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR.
    ///
    /// - Throws: ``OutputError`` (``OutputError/Kind/write``) from the failed write's errno.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String, atomic: Bool)
        throws(OutputError)
    {
        var offset = 0
        while offset < bytes.count, let start = bytes.baseAddress {
            let result = SystemCall.retryingInterrupts("write") {
                Glibc.write(descriptor, start + offset, bytes.count - offset)
            }
            switch result {
            case .success(let count): offset += count
            case .failure(let error): throw OutputError(path: path, writing: error.errno.rawValue, atomic: atomic)
            }
        }
    }

    /// The name a stopped run's output takes instead of `path`, so that nothing half done
    /// appears under the name a finished one would have: `ride.mp4` → `ride.partial.mp4`,
    /// `log` → `log.partial`.
    public static func partialName(of path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        let folder = String(path.dropLast(name.count))
        guard let dot = name.lastIndex(of: "."), dot > name.startIndex else { return path + ".partial" }
        return folder + name[..<dot] + ".partial" + name[dot...]
    }

    /// Removes the temporary file; the destination is left as it was.
    public func discard() {
        guard !finished else { return }
        finished = true
        _ = close(descriptor)
        if !inPlace { unlink(temporary) }
    }
}
