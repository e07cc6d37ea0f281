import CTestSupport
import Glibc

/// A pseudo-terminal pair for tests of serial-port code: the test writes to ``master`` what a
/// device would send down the wire; the code under test opens ``path``.
public final class PseudoTerminal {
    /// The master side's descriptor.
    public let master: Int32
    /// The slave side's path, such as `/dev/pts/3`.
    public let path: String

    /// Opens a new pair.
    public init() throws {
        var name = [CChar](repeating: 0, count: 128)
        let descriptor = arcapture_test_open_pty(&name, name.count)
        guard descriptor >= 0 else { throw GPSFakeFailed(description: "cannot open a pseudo-terminal: errno \(errno)") }
        master = descriptor
        path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { close(master) }

    /// Writes `text` to the master side.
    public func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            bytes = bytes.dropFirst(count)
        }
    }
}
