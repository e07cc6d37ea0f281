import Foundation
import Glibc

/// Device nodes and pipes for tests of outputs that are not files.
public enum DeviceNodes {
    /// A character device that discards what is written (`/dev/null`'s major 1, minor 3), made in
    /// `directory` as root, so that a writer that wrongly renamed over it harms nothing else; as
    /// another user (who cannot make nodes, nor replace anything in /dev), `/dev/null` itself.
    public static func null(in directory: URL) -> String {
        let path = directory.appendingPathComponent("null").path
        // Linux's dev_t for small numbers: the major in bits 8-19, the minor in bits 0-7.
        if getuid() == 0, mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 { return path }
        return "/dev/null"
    }

    /// What `path` is, not following a symbolic link there: its type bits and device number.
    public static func node(_ path: String) -> (type: UInt32, device: UInt64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT, UInt64(info.st_rdev))
    }
}
