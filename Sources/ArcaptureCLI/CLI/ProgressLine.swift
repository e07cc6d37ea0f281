import Dispatch
import Foundation

/// A progress line on stderr, redrawn twice a second, shown only when stderr is a terminal (logs
/// and pipes get no carriage-return noise).
///
/// - Important: Not thread-safe; start and stop it from one task.
final class ProgressLine {
    private var timer: (any DispatchSourceTimer)?

    /// Starts redrawing `render()`'s text, if stderr is a terminal.
    func start(_ render: @escaping @Sendable () -> String) {
        guard Terminal.stderrIsTerminal, timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "arcapture.progress"))
        timer.setEventHandler { FileHandle.standardError.write(Data("\r\u{1B}[K\(render())".utf8)) }
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        timer.resume()
        self.timer = timer
    }

    /// Stops and erases the line.
    func stop() {
        guard let timer else { return }
        timer.cancel()
        self.timer = nil
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
