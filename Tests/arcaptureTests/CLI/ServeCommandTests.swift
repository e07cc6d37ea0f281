import Foundation
import TestSupport
import Testing

/// `arcapture serve`'s command line, run as a user would (the server itself is tested in GeoAR's
/// suite, and against vivid in the VM suite).
@Suite("arcapture serve's command line")
struct ServeCommandTests {
    @Test("an --auth file that is missing is 66, a malformed one 65 naming its line, before any camera")
    func authFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = try await Binary.run(["serve", "--auth", folder.appendingPathComponent("none").path])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("none: no such file"))
        let bad = folder.appendingPathComponent("users")
        try Data("ada:lovelace\n\nnocolon\n".utf8).write(to: bad)
        let malformed = try await Binary.run(["serve", "--auth", bad.path, "--device", "/dev/arcapture-absent"])
        #expect(malformed.status == 65)
        #expect(malformed.stderr.contains("\(bad.path): line 3: expected user:password, not 'nocolon'"))
        #expect(!malformed.stderr.contains("arcapture-absent"), "the file is read before the camera is looked for")
    }

    @Test("the help lists the endpoints and the safe default")
    func help() async throws {
        let help = try await Binary.run(["serve", "--help"])
        #expect(help.status == 0)
        for text in ["/stream", "/snapshot", "/state", "/select", "(default: 127.0.0.1:8080)", "--auth FILE"] {
            #expect(help.stdout.contains(text), "\(text)")
        }
    }

    @Test(
        "the server's limits are whole numbers in range, refused with 64 naming the option",
        arguments: [
            ("--max-clients", "0"), ("--max-clients-per-address", "0"), ("--max-clients-per-address", "two"),
            ("--idle-timeout", "-1"),
        ])
    func limits(_ option: String, _ value: String) async throws {
        let result = try await Binary.run(["serve", option, value, "--device", "/dev/arcapture-absent"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("\(option) must be a whole number"), "\(result.stderr)")
        #expect(result.stderr.contains("'\(value)'"))
    }

    @Test("--tls-cert and --tls-key go together; a missing file is 66, one that is not PEM 65, before any camera")
    func tlsFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = try await Binary.run(["serve", "--tls-cert", "cert.pem"])
        #expect(alone.status == 64)
        #expect(alone.stderr.contains("--tls-cert needs --tls-key"))
        let keyAlone = try await Binary.run(["serve", "--tls-key", "key.pem"])
        #expect(keyAlone.status == 64)
        #expect(keyAlone.stderr.contains("--tls-key needs --tls-cert"))
        let text = folder.appendingPathComponent("cert.pem")
        try Data("not a certificate\n".utf8).write(to: text)
        let missing = try await Binary.run([
            "serve", "--tls-cert", text.path, "--tls-key", folder.appendingPathComponent("none").path,
        ])
        #expect(missing.status == 65, "the certificate is read first: \(missing.stderr)")
        #expect(missing.stderr.contains("\(text.path): not a PEM certificate"))
        let certificate = try await SelfSignedCertificate(in: folder)
        let noKey = try await Binary.run([
            "serve", "--tls-cert", certificate.certificate, "--tls-key", folder.appendingPathComponent("none").path,
            "--device", "/dev/arcapture-absent",
        ])
        #expect(noKey.status == 66)
        #expect(noKey.stderr.contains("none: no such file"))
        #expect(!noKey.stderr.contains("arcapture-absent"), "the files are read before the camera is looked for")
    }

}
