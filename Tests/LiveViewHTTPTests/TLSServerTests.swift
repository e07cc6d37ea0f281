import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import GeoAR
@testable import LiveViewHTTP

/// HTTPS through GnuTLS: curl, checking the certificate as a browser would, against a real
/// libmicrohttpd daemon on loopback.
@Suite("Live view over HTTPS")
struct TLSServerTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func credentials(in folder: URL, name: String = "") async throws -> SelfSignedCertificate {
        try await SelfSignedCertificate(in: folder, name: name)
    }

    private func curl(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run(
            tool: "curl", ["-s", "--max-time", "20"] + arguments, install: "apt-get install curl")
    }

    @Test(
        "with a certificate it serves HTTPS that curl verifies: /state, /snapshot byte for byte; plain HTTP gets nothing"
    )
    func https() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try await credentials(in: folder)
        let server = LiveViewServer(
            address: try ServerAddress(parsing: "127.0.0.1:0"), broadcast: FrameBroadcast(),
            model: LiveViewServerTests.Model(), placeholderDelay: nil,
            tls: try TLSCredentials(certificateFile: files.certificate, keyFile: files.key))
        try server.start()
        defer { server.stop() }
        let frame = try LiveViewServerTests.jpeg(77)
        server.broadcast.publish(frame, capturedAt: Date())
        let base = "https://127.0.0.1:\(server.address.port)"
        let state = try await curl(["--cacert", files.certificate, "\(base)/state"])
        #expect(state.status == 0, "curl verified the certificate and got an answer: \(state.stderr)")
        #expect(state.stdout.contains(#""schema":"arcapture.state/1""#))
        let snapshot = folder.appendingPathComponent("snapshot.jpg")
        await #expect(try curl(["--cacert", files.certificate, "-o", snapshot.path, "\(base)/snapshot"]).status == 0)
        #expect(Array(try Data(contentsOf: snapshot)) == frame)
        let plain = try await curl(["http://127.0.0.1:\(server.address.port)/state"])
        #expect(plain.status != 0 || !plain.stdout.contains("arcapture.state"), "no answer over plain HTTP")
        await #expect(try curl(["--cacert", files.certificate, "\(base)/state"]).status == 0, "and it serves on")
    }

    @Test("a key that is not the certificate's is refused at start, saying so")
    func mismatchedKey() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await credentials(in: folder, name: "1")
        let second = try await credentials(in: folder, name: "2")
        let server = LiveViewServer(
            address: try ServerAddress(parsing: "127.0.0.1:0"), broadcast: FrameBroadcast(),
            model: LiveViewServerTests.Model(), placeholderDelay: nil,
            tls: try TLSCredentials(certificateFile: first.certificate, keyFile: second.key))
        #expect(throws: ServerError.self) { try server.start() }
        do {
            try server.start()
        } catch {
            #expect(error.description.contains("GnuTLS refused them"), "\(error.description)")
        }
    }

    @Test("a file that is not PEM is named")
    func notPEM() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("key.txt")
        try Data("hello\n".utf8).write(to: text)
        let files = try await credentials(in: folder)
        #expect(throws: InputFileError.self) {
            try TLSCredentials(certificateFile: files.certificate, keyFile: text.path)
        }
        do {
            _ = try TLSCredentials(certificateFile: files.certificate, keyFile: text.path)
        } catch {
            #expect(error.description.contains("key.txt: not a PEM private key"), "\(error.description)")
        }
    }
}
