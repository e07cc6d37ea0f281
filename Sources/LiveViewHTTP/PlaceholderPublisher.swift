import ArcaptureCore
import CaptureKit
import Dispatch
import GeoAR
import JPEGKit

/// Publishes a ``PlaceholderFrame`` once a second while no camera frame has come for `delay`,
/// saying why (the view's phase), at the size of the camera's last frame: clients of `/stream`
/// keep receiving frames while the camera is away, and one whose peer vanished is found at the
/// next write.
///
/// This type is thread-safe. Its looks run on its own serial queue.
final class PlaceholderPublisher: Sendable {
    private struct State {
        /// The last frame made, for what it said at what size: the same one is published again
        /// rather than drawn again.
        var made: (lines: [String], width: Int, height: Int, jpeg: [UInt8])?
        /// The camera frames' size, from the last one's header (VGA before the first).
        var size = (width: 640, height: 480)
        /// The camera frame the size was read from.
        var measured: UInt64 = 0
    }

    /// How often it looks.
    static let interval: Duration = .seconds(1)

    private let broadcast: FrameBroadcast
    private let model: any LiveViewModel
    private let delay: Duration
    private let queue: DispatchQueue
    private let state = Locked(State())
    private let timer: RepeatingTimer

    /// A publisher into `broadcast` of why `model`'s view sends no frame, after `delay` without one.
    init(broadcast: FrameBroadcast, model: any LiveViewModel, delay: Duration) {
        self.broadcast = broadcast
        self.model = model
        self.delay = delay
        let queue = DispatchQueue(label: "arcapture.serve.placeholder")
        self.queue = queue
        timer = RepeatingTimer(queue: queue, interval: Self.interval)
    }

    /// Starts looking (once).
    func start() {
        timer.start { [weak self] in self?.look() }
    }

    /// Stops looking.
    func stop() {
        timer.cancel()
    }

    private func look() {
        dispatchPrecondition(condition: .onQueue(queue))
        if let latest = broadcast.latest, !latest.isPlaceholder, latest.sequence != state.withLock({ $0.measured }),
            let header = latest.jpeg.withUnsafeBytes({ try? JPEGDecoder().readHeader($0) })
        {
            state.withLock { state in
                state.size = (header.width, header.height)
                state.measured = latest.sequence
            }
        }
        guard broadcast.timeSinceFrame >= delay, !broadcast.isClosed else { return }
        let lines = PlaceholderFrame.lines(forPhase: model.state(clients: []).phase)
        let (size, made) = state.withLock { ($0.size, $0.made) }
        if let made, made.lines == lines, made.width == size.width, made.height == size.height {
            broadcast.publishPlaceholder(made.jpeg)
            return
        }
        guard let jpeg = PlaceholderFrame.jpeg(width: size.width, height: size.height, lines: lines) else { return }
        state.withLock { $0.made = (lines, size.width, size.height, jpeg) }
        broadcast.publishPlaceholder(jpeg)
    }
}
