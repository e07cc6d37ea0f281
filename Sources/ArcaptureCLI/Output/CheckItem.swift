/// One line of a check report: a named check, its verdict and the figures behind it.
struct CheckItem: Encodable, Equatable, Sendable {
    /// A check's verdict.
    enum Status: String, Encodable, Sendable {
        case pass, fail, skip
    }

    /// `access`, `device`, `format`, `stream`, `frame-rate`, `drops`, `timestamps`, `frames`, `picture`,
    /// `restarts`, `stop-queued`, `reopen` or (with `--all-formats`) `modes`.
    let name: String
    let status: Status
    /// One line with the figures, such as `24.98 fps measured, 25 fps applied`.
    let detail: String
    /// More lines (the format choice's reasons), possibly none.
    let notes: [String]

    init(_ name: String, _ status: Status, _ detail: String, notes: [String] = []) {
        self.name = name
        self.status = status
        self.detail = detail
        self.notes = notes
    }
}
