import Dispatch
import Foundation

/// Turns Ctrl-C (SIGINT) and SIGTERM into a callback on a dispatch queue, so a command can stop its
/// session cleanly, finish or discard its files, and exit with status 130.
///
/// The signals are ignored at the process level and delivered through `DispatchSource` instead: a
/// C signal handler could only set a flag, while this runs ordinary Swift code safely.
final class InterruptSignal {
    private let sources: [any DispatchSourceSignal]

    /// Starts listening; `handler` runs on a private queue for each signal received.
    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "arcapture.signals")
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    /// Stops listening and restores the default actions.
    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
