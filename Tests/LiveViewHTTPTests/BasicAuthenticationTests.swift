import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import GeoAR
@testable import LiveViewHTTP

/// `serve --auth`: the accounts file, the header check, and the constant-time compare.
@Suite("Basic authentication")
struct BasicAuthenticationTests {
    private func message(_ body: () throws(InputFileError) -> BasicAuthentication) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.description
        }
    }

    private func header(_ credentials: String) -> String {
        "Basic " + Data(credentials.utf8).base64EncodedString()
    }

    @Test("right credentials pass; wrong, missing, malformed and other schemes do not")
    func allows() {
        let auth = BasicAuthentication(accounts: ["ada:lovelace", "op:pass:with:colons"])
        #expect(auth.allows(header("ada:lovelace")))
        #expect(auth.allows(header("op:pass:with:colons")))
        #expect(
            auth.allows("basic " + Data("ada:lovelace".utf8).base64EncodedString()), "the scheme is case-insensitive")
        for wrong in [
            header("ada:lovelac"), header("ada:lovelace "), header("Ada:lovelace"), header(""), header("ada"),
        ] {
            #expect(!auth.allows(wrong), "\(wrong)")
        }
        #expect(!auth.allows(nil))
        #expect(!auth.allows("Basic not-base64!"))
        #expect(!auth.allows("Bearer " + Data("ada:lovelace".utf8).base64EncodedString()))
    }

    @Test(
        "the compare is exact, whatever the lengths",
        arguments: [
            ("", "", true), ("a", "a", true), ("abc", "abd", false), ("abc", "ab", false), ("ab", "abc", false),
            ("", "a", false), ("a\u{0}", "a", false),
        ])
    func constantTimeEqual(left: String, right: String, equal: Bool) {
        #expect(BasicAuthentication.constantTimeEqual(Array(left.utf8), Array(right.utf8)) == equal)
    }

    @Test("the compare visits every byte of the longer input, where the first mismatch is or none is")
    func noEarlyExit() {
        let secret = Array(String(repeating: "s", count: 64).utf8)
        var first = secret
        first[0] = UInt8(ascii: "x")
        var last = secret
        last[63] = UInt8(ascii: "x")
        for (guess, equal) in [(secret, true), (first, false), (last, false), (Array(secret.prefix(3)), false)] {
            let result = BasicAuthentication.compare(secret, guess)
            #expect(result.equal == equal)
            #expect(result.visited == 64)
        }
    }

    @Test("the file: comments and blank lines skipped; a line without a colon is named")
    func file() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good")
        try Data("# viewers\n\nada:lovelace\r\nop:x:y\n".utf8).write(to: good)
        let auth = try BasicAuthentication(file: good.path)
        #expect(auth.allows(header("op:x:y")))
        let bad = folder.appendingPathComponent("bad")
        try Data("ada:lovelace\njustaname\n".utf8).write(to: bad)
        #expect(
            message { () throws(InputFileError) in try BasicAuthentication(file: bad.path) }
                == "\(bad.path): line 2: expected user:password, not 'justaname'")
        let empty = folder.appendingPathComponent("empty")
        try Data("# nobody yet\n".utf8).write(to: empty)
        #expect(
            message { () throws(InputFileError) in try BasicAuthentication(file: empty.path) }
                == "\(empty.path): no user:password line")
        let none = folder.appendingPathComponent("none").path
        #expect(message { () throws(InputFileError) in try BasicAuthentication(file: none) } == "\(none): no such file")
    }
}
