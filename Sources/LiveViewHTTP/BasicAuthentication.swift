import ArcaptureCore
import CaptureKit
import Foundation

/// HTTP Basic authentication for a ``LiveViewServer`` (`serve --auth FILE`): the accounts, and the
/// check of a request's `Authorization` header against them.
///
/// The check compares in constant time: every account is compared, every byte of the longer of
/// the two, so how long an answer takes says nothing of how much of a guess was right.
public struct BasicAuthentication: Sendable, CustomStringConvertible {
    /// `user:password`, as bytes, one per account.
    private let accounts: [[UInt8]]

    /// `2 accounts`: never the passwords, should it be printed.
    public var description: String { "\(accounts.count) account\(accounts.count == 1 ? "" : "s")" }

    /// The realm the browser shows when it asks.
    static let realm = "arcapture"

    /// Accounts from `user:password` lines (not empty; the password may contain colons).
    init(accounts: [String]) {
        self.accounts = accounts.map { Array($0.utf8) }
    }

    /// Reads `path`: one `user:password` per line; blank lines and lines starting with `#` are
    /// skipped.
    ///
    /// - Throws: `InputFileError`: the file is missing or unreadable, a line has no colon or an
    ///   empty user, or there is no account at all; naming the file and line.
    public init(file path: String) throws(InputFileError) {
        let data = try InputFile.read(path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw .malformed(file: path, location: nil, problem: "not UTF-8 text")
        }
        var accounts: [String] = []
        // Lines end in LF or CRLF (one Character in Swift, so split by newline characters).
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = String(rawLine)
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .malformed(
                    file: path, location: "line \(index + 1)",
                    problem: "expected user:password, not '\(line.prefix(40))'")
            }
            accounts.append(line)
        }
        guard !accounts.isEmpty else {
            throw .malformed(file: path, location: nil, problem: "no user:password line")
        }
        self.init(accounts: accounts)
    }

    /// Whether `header` (an `Authorization` value, or nil when the request had none) names an account.
    func allows(_ header: String?) -> Bool {
        guard let header, let presented = Self.credentials(in: header) else { return false }
        var allowed = false
        for account in accounts where Self.constantTimeEqual(account, presented) { allowed = true }
        return allowed
    }

    /// The `user:password` bytes of `Basic dXNlcjpwYXNz`, or nil when it is not that.
    static func credentials(in header: String) -> [UInt8]? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: parts[1].trimmingCharacters(in: .whitespaces))
        else { return nil }
        return Array(decoded)
    }

    /// Whether `left` and `right` are equal, in a time that depends only on the longer one's length.
    static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        compare(left, right).equal
    }

    /// The compare, with the bytes it visited (always the longer input's length: there is no
    /// early exit, which the tests check).
    static func compare(_ left: [UInt8], _ right: [UInt8]) -> (equal: Bool, visited: Int) {
        let length = max(left.count, right.count)
        var difference = UInt(bitPattern: left.count ^ right.count)
        var visited = 0
        for index in 0..<length {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= UInt(a ^ b)
            visited += 1
        }
        return (difference == 0, visited)
    }
}
