import Foundation

/// When each frame of recorded footage was taken: `start + index / fps × speed + offset`, or, for
/// a video file's frames, `start + presentation time × speed + offset`.
///
/// - `start`: from the file's metadata, the track's first fix, or the user (`--start`).
/// - `offset`: seconds added to every frame time (`--offset`), to correct a camera clock that was
///   off (positive when the camera was behind).
/// - `speed`: real seconds per second of footage (`--speed`): 1 for normal video, 10 for a
///   time-lapse that took one frame every 10/fps seconds.
public struct FootageClock: Hashable, Sendable {
    /// The first frame's time before the offset.
    public var start: Date
    /// Frames per second of the footage.
    public var framesPerSecond: Double
    /// Seconds added to every frame's time.
    public var offset: Double
    /// Real seconds per second of footage.
    public var speed: Double

    /// Creates a clock.
    public init(start: Date, framesPerSecond: Double, offset: Double = 0, speed: Double = 1) {
        self.start = start
        self.framesPerSecond = framesPerSecond
        self.offset = offset
        self.speed = speed
    }

    /// The time of frame `index` (0-based).
    public func time(ofFrame index: Int) -> Date {
        start.addingTimeInterval(Double(index) / framesPerSecond * speed + offset)
    }

    /// The time of `frame`: by its presentation time when the footage gives one (a video file's,
    /// which keeps a variable frame rate's timing), else by its index.
    public func time(of frame: FootageFrame) -> Date {
        guard let presented = frame.presentationTime else { return time(ofFrame: frame.index) }
        return start.addingTimeInterval(presented * speed + offset)
    }
}
