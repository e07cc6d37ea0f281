import Foundation

/// A self-signed certificate for 127.0.0.1 and its private key, made by openssl as PEM files, for
/// the HTTPS tests (curl can verify it with `--cacert`).
public struct SelfSignedCertificate {
    /// The certificate's file.
    public let certificate: String
    /// The key's file.
    public let key: String

    /// Makes `cert{name}.pem` and `key{name}.pem` in `folder`.
    ///
    /// - Throws: ``ProcessRunner/Missing`` without openssl; a failure naming what openssl said.
    public init(in folder: URL, name: String = "") async throws {
        certificate = folder.appendingPathComponent("cert\(name).pem").path
        key = folder.appendingPathComponent("key\(name).pem").path
        let made = try await ProcessRunner.run(
            tool: "openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
            ], install: "apt-get install openssl")
        guard made.status == 0 else {
            throw Failure(description: "openssl could not make a certificate: \(made.stderr)")
        }
    }

    /// openssl failed.
    public struct Failure: Error, CustomStringConvertible {
        /// What it said.
        public let description: String
    }
}
