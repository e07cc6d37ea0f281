/// A command line arcapture cannot run, with what to type instead.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// The message, such as `unknown option '--frame' (did you mean '--frames'?)`.
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
