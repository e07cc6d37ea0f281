import Foundation
import GeoAR
import Glibc
import TestSupport
import Testing

/// Outputs named by a device, a pipe or a symbolic link: written into or through, never replaced
/// (a rename over `/dev/null` as root had made it a regular file for the whole machine).
@Suite("Outputs to devices, pipes and links")
struct OutputInPlaceTests {
    @Test(
        "a character device is written into, with or without replacing, and stays the node it was",
        arguments: [false, true])
    func device(replacing: Bool) throws {
        let directory = try PackagePaths.temporaryDirectory("in-place")
        defer { try? FileManager.default.removeItem(at: directory) }
        let null = DeviceNodes.null(in: directory)
        let before = try #require(DeviceNodes.node(null))
        #expect(before.type == S_IFCHR)
        #expect(OutputPathKind(path: null) == .stream && !OutputPathKind(path: null).isReplaced)
        try AtomicFileWriter.checkCanCreate(null)
        let writer = try AtomicFileWriter(destination: null, replacing: replacing)
        #expect(writer.temporaryPath == null)
        try writer.write([UInt8](repeating: 7, count: 100_000))
        try writer.commit()
        let after = try #require(DeviceNodes.node(null))
        #expect(after.type == S_IFCHR && after.device == before.device, "still the device")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.allSatisfy { $0 == "null" }, "no twin made beside it: \(left)")
        // Discarded, nothing is removed either.
        let discarded = try AtomicFileWriter(destination: null)
        discarded.discard()
        #expect(DeviceNodes.node(null)?.type == S_IFCHR)
    }

    @Test("a FIFO is written into: its reader gets every byte, and it stays a FIFO")
    func fifo() async throws {
        let directory = try PackagePaths.temporaryDirectory("in-place")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("pipe").path
        #expect(mkfifo(path, 0o600) == 0)
        let sent = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }  // more than a pipe holds
        // The reader opens first, on its own thread: opening a FIFO waits for the other end.
        let reading = Task.detached { () -> Data? in FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() }
        let writer = try AtomicFileWriter(destination: path, replacing: false)
        try writer.write(sent)
        try writer.commit()
        let received = await reading.value
        #expect(received.map { [UInt8]($0) } == sent)
        #expect(DeviceNodes.node(path)?.type == S_IFIFO)
    }

    @Test("a symbolic link to a file: the file is replaced whole, the link kept")
    func link() throws {
        let directory = try PackagePaths.temporaryDirectory("in-place")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("real.txt").path
        let link = directory.appendingPathComponent("link.txt").path
        try "old".write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.txt")
        #expect(OutputPathKind(path: link) == .file && OutputPathKind(path: link).isReplaced)
        let writer = try AtomicFileWriter(destination: link)
        try writer.write(Array("new".utf8))
        try writer.commit()
        #expect(DeviceNodes.node(link)?.type == S_IFLNK, "the link is still a link")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "new")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["link.txt", "real.txt"])
    }

    @Test("a socket is refused by name before anything is written")
    func socketRefused() throws {
        let directory = try PackagePaths.temporaryDirectory("in-place")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("socket").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        #expect(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        #expect(OutputPathKind(path: path) == .unusable("a socket"))
        #expect {
            try AtomicFileWriter(destination: path)
        } throws: { error in
            (error as? OutputError)?.description == "cannot write '\(path)': it is a socket, not a file; name a file"
        }
        #expect(DeviceNodes.node(path)?.type == S_IFSOCK)
    }
}
