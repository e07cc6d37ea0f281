import Glibc

/// Small, allocation-light file system helpers over Glibc, for /dev, /proc and /sys, where
/// Foundation's FileManager adds nothing and hides errno.
package enum FileSystem {
    /// The names in `directory` (without `.` and `..`), or the reason it cannot be read.
    ///
    /// `opendir`/`readdir` are libc's directory streams rather than single system calls: they report
    /// failure as NULL with `errno`, and the `getdents` underneath restarts after signals by itself.
    package static func entries(of directory: String) -> Result<[String], Errno> {
        guard let handle = opendir(directory) else { return .failure(.current) }
        defer { closedir(handle) }
        var names: [String] = []
        // The name is read where it lies: glibc sizes each record to its name (`d_reclen`), so a
        // copy of the whole `d_name` array (256 bytes) reads past a short last record
        // (AddressSanitizer found it listing /proc/PID/fd). 19 on Linux: after d_ino, d_off,
        // d_reclen and d_type.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        while let entry = readdir(handle) {
            let name = String(
                cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    /// `stat(2)`, following symbolic links.
    package static func status(of path: String) -> Result<stat, Errno> {
        var info = stat()
        return SystemCall.retryingInterrupts("stat") { stat(path, &info) }.map { _ in info }.mapError(\.errno)
    }

    /// Whether `info` describes a character device (what V4L2 nodes are).
    package static func isCharacterDevice(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFCHR }

    /// The target of a symbolic link, resolved to an absolute, canonical path, or nil.
    package static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Reads a small text file such as `/proc/PID/comm` (at most `limit` bytes), or nil.
    package static func readSmallFile(_ path: String, limit: Int = 4096) -> String? {
        guard
            case .success(let descriptor) = SystemCall.retryingInterrupts("open", { open(path, O_RDONLY | O_CLOEXEC) })
        else { return nil }
        defer { _ = SystemCall.once("close") { close(descriptor) } }
        var bytes = [UInt8](repeating: 0, count: limit)
        var total = 0
        while total < limit {
            let result = bytes.withUnsafeMutableBytes { raw in
                SystemCall.retryingInterrupts("read") {
                    read(descriptor, raw.baseAddress.map { $0 + total }, limit - total)
                }
            }
            guard case .success(let count) = result, count > 0 else { break }
            total += count
        }
        return String(decoding: bytes.prefix(total), as: UTF8.self)
    }

    /// The last `count` bytes of the regular file at `path` (all of it when it is shorter), read
    /// at its end: a video's trailer without reading the video.
    package static func readTail(of path: String, count: Int) -> Result<[UInt8], SystemCallError> {
        let opened = SystemCall.retryingInterrupts("open") { open(path, O_RDONLY | O_CLOEXEC) }
        guard case .success(let descriptor) = opened else {
            if case .failure(let error) = opened { return .failure(error) }
            return .success([])
        }
        defer { _ = SystemCall.once("close") { close(descriptor) } }
        var info = stat()
        if case .failure(let error) = SystemCall.once("fstat", { fstat(descriptor, &info) }) { return .failure(error) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return .failure(SystemCallError(call: "fstat", errno: Errno(rawValue: EINVAL)))
        }
        let size = Int(info.st_size)
        let wanted = max(0, min(count, size))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var total = 0
        while total < wanted {
            let result = bytes.withUnsafeMutableBytes { raw in
                SystemCall.retryingInterrupts("pread") {
                    pread(descriptor, raw.baseAddress.map { $0 + total }, wanted - total, off_t(size - wanted + total))
                }
            }
            switch result {
            case .success(let read) where read > 0: total += read
            case .success: return .success(Array(bytes.prefix(total)))  // the file shrank
            case .failure(let error): return .failure(error)
            }
        }
        return .success(bytes)
    }

    /// The `rwx` string of a mode, as `ls -l` prints it after the type letter: `rw-rw----`.
    package static func permissionString(_ mode: UInt32) -> String {
        let letters: [(UInt32, Character)] = [
            (0o400, "r"), (0o200, "w"), (0o100, "x"), (0o040, "r"), (0o020, "w"), (0o010, "x"),
            (0o004, "r"), (0o002, "w"), (0o001, "x"),
        ]
        return String(letters.map { mode & $0.0 != 0 ? $0.1 : "-" })
    }
}
