import ArcaptureCore
import CaptureKit
import Foundation

/// The certificate and private key a ``LiveViewServer`` speaks HTTPS with (`serve --tls-cert FILE
/// --tls-key FILE`), as PEM text: GnuTLS, through libmicrohttpd, does the TLS.
public struct TLSCredentials: Sendable, CustomStringConvertible {
    /// The certificate (chain), PEM.
    let certificate: String
    /// The private key, PEM. Never printed.
    let key: String
    /// The files they came from, for messages.
    let files: (certificate: String, key: String)

    /// `certificate cert.pem, key key.pem`: never the key itself.
    public var description: String { "certificate \(files.certificate), key \(files.key)" }

    /// Reads both files.
    ///
    /// - Throws: `InputFileError`: a file is missing or unreadable, or is not PEM (no `-----BEGIN`
    ///   line of a certificate, or of a private key), naming the file.
    public init(certificateFile: String, keyFile: String) throws(InputFileError) {
        certificate = try Self.pem(certificateFile, holding: ["CERTIFICATE"])
        key = try Self.pem(keyFile, holding: ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"])
        files = (certificateFile, keyFile)
    }

    private static func pem(_ path: String, holding labels: [String]) throws(InputFileError) -> String {
        let data = try InputFile.read(path)
        guard let text = String(data: data, encoding: .utf8),
            labels.contains(where: { text.contains("-----BEGIN \($0)-----") })
        else {
            throw .malformed(
                file: path, location: nil,
                problem: "not a PEM \(labels[0].lowercased()) (no '-----BEGIN \(labels[0])-----' line)")
        }
        return text
    }
}
