import ARCompositor
import ArcaptureCore
import CaptureKit
import Footage
import Foundation

/// Annotates recorded footage, the batch end of the one frame pipeline: frames from a
/// `FootageReader`, each frame's pose looked up at its time, drawn on a pool of workers and written
/// in input order to a ``FootageSink``.
///
/// Batch policy: nothing is dropped. The reader waits while the workers are busy (lossless
/// back-pressure), frames are written in the order they were read, and the output is
/// byte-identical whatever the number of workers. Navigation along the route is worked out in frame
/// order before a frame goes to a worker, so every worker draws the same thing for it.
///
/// ```swift
/// let reader = try FootageReader(path: "clip.mjpeg")
/// let sink = try FootageSink(destination: .mjpegFile("out.mjpeg"), frameRate: (30, 1))
/// let pipeline = FootagePipeline(
///     reader: reader, settings: settings, poses: .track(timeline, clock), route: nil, sink: sink, workers: 4)
/// let summary = pipeline.run()
/// ```
///
/// - Important: ``run(isInterrupted:onWarning:frameObserver:mapData:centreObserver:drawnObserver:)`` runs on the caller's thread and returns when the
///   footage is done; ``progress`` may be read from any thread meanwhile.
///
/// `@unchecked Sendable`: the reader and the first frame are used only by the thread in
/// ``run(isInterrupted:onWarning:frameObserver:mapData:centreObserver:drawnObserver:)``; the counts the workers' deliveries update are in a `Locked`.
public final class FootagePipeline: @unchecked Sendable {
    /// Where each frame's pose comes from.
    public enum Poses: Sendable {
        /// A track (GPX, NMEA, a sidecar) on a timeline, and the footage's clock giving each frame's time.
        case track(PoseTimeline, FootageClock)
        /// Each photo's own EXIF geotag (a folder of geotagged photos), its altitude above sea level
        /// raised by the geoid separation; its image direction, else `orientation` when given (a
        /// photo with neither has no pose: where it looks is unknown, and north would be a guess).
        case geotags(geoidSeparation: Double?, orientation: DeviceOrientation? = nil)
        /// One pose for every frame (a camera on a mast), with the footage clock when there is one.
        case fixed(DevicePose, FootageClock?)

        /// Seconds between consecutive frames' times, when a clock gives them (photos' EXIF times
        /// follow no step).
        public var frameInterval: Double? {
            let clock: FootageClock?
            switch self {
            case .track(_, let given): clock = given
            case .fixed(_, let given): clock = given
            case .geotags: clock = nil
            }
            return clock.map { abs($0.time(ofFrame: 1).timeIntervalSince($0.time(ofFrame: 0))) }
        }
    }

    /// What has been done so far, and at the end, what was done.
    public struct Progress: Sendable, Equatable {
        /// Frames read from the footage.
        public var read = 0
        /// Frames written (annotated or passed through).
        public var written = 0
        /// Frames written with the overlay drawn.
        public var annotated = 0
        /// Frames that could not be decoded, skipped.
        public var corrupt = 0
        /// The JPEG frames drawn on, spliced or not.
        public var splicing = SpliceCount()

        /// Frames written without a pose, unannotated.
        public var passedThrough: Int { written - annotated }
        /// Frames finished one way or the other.
        public var finished: Int { written + corrupt }
    }

    /// How a run ended.
    public enum Ending: Sendable, Equatable {
        /// Every frame was read and written, and the output committed.
        case completed
        /// Stopped early on request (Ctrl-C); every frame before it was written and committed.
        case interrupted
        /// The program reading stdout went away (`| head`): stopped quietly.
        case readerClosed
        /// Writing failed (the output is discarded, except numbered files already written).
        case failed(OutputFailure)
    }

    /// A failed write: the message and whether the file could not be created or writing it failed.
    public struct OutputFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What went wrong, for the user.
        public var description: String
        /// Whether a file could not be created (it exists, say) rather than written.
        public var cannotCreate: Bool
    }

    /// A frame about to be drawn, in frame order, for ``run(isInterrupted:onWarning:frameObserver:mapData:centreObserver:drawnObserver:)``'s
    /// observer.
    public struct FrameInfo: Sendable {
        /// The frame's number, from 0.
        public var index: Int
        /// Its time, when known.
        public var time: Date?
        /// Its pose, nil when it has none (it passes through).
        public var pose: DevicePose?
        /// Where the traveller is on the route; nil when not navigating or arrived.
        public var navigation: NavigationInfo?
    }

    /// A run's result.
    public struct Summary: Sendable {
        /// How it ended.
        public var ending: Ending
        /// The counts at the end.
        public var progress: Progress
        /// JPEG frames the reader found truncated and dropped itself.
        public var truncated: Int
        /// Notes from the reader (bytes skipped between frames, and the like).
        public var notes: [String]
        /// Seconds from start to end.
        public var seconds: Double
        /// A video that held fewer frames than its index promises (cut short), when read to its end.
        public var shortfall: FootageShortfall?

        /// Nothing done (footage that never started).
        static let empty = Summary(ending: .completed, progress: Progress(), truncated: 0, notes: [], seconds: 0)
    }

    private let reader: FootageReader
    private let first: FootageFrame?
    private let settings: AnnotationSettings
    private let poses: Poses
    private let route: NavigationRoute?
    private let sink: FootageSink
    private let workers: Int
    /// Seconds east of UTC in which the clock's start was stated (a photo's EXIF offset): the
    /// banner shows clock times in it; nil: `TZ`'s zone.
    private let clockUTCOffset: Int?
    private let state = Locked(State())

    private struct State {
        var progress = Progress()
        var failure: OutputFailure?
        var readerClosed = false
    }

    /// Creates a pipeline; nothing is read until ``run(isInterrupted:onWarning:frameObserver:mapData:centreObserver:drawnObserver:)``.
    ///
    /// - Parameters:
    ///   - reader: the footage.
    ///   - first: a frame already read from `reader` (to describe the footage), processed first.
    ///   - settings: what to draw and how to encode, shared by the workers.
    ///   - poses: where each frame's pose comes from.
    ///   - route: the route to follow, in frame order.
    ///   - sink: where frames and sidecar records go.
    ///   - workers: frames drawn in parallel (1 or more).
    ///   - clockUTCOffset: seconds east of UTC in which the clock's start was stated, so the banner
    ///     shows the time the camera recorded; nil: the zone `TZ` names. A photo timed by its own
    ///     EXIF shows its own zone.
    public init(
        reader: FootageReader, first: FootageFrame? = nil, settings: AnnotationSettings, poses: Poses,
        route: NavigationRoute?, sink: FootageSink, workers: Int, clockUTCOffset: Int? = nil
    ) {
        self.clockUTCOffset = clockUTCOffset
        self.reader = reader
        self.first = first
        self.settings = settings
        self.poses = poses
        self.route = route
        self.sink = sink
        self.workers = max(1, workers)
    }

    /// The counts so far. This property is thread-safe.
    public var progress: Progress { state.withLock { $0.progress } }

    /// Reads, annotates and writes every frame, then commits the output.
    ///
    /// - Parameters:
    ///   - isInterrupted: asked before each frame is read; true stops reading (Ctrl-C). The frames
    ///     in flight are finished and the output, whole, holds every frame up to there.
    ///   - onWarning: damaged frames, one call each (on a worker's delivery, in frame order); and
    ///     geotagged photos without an image direction (passed through) or with a magnetic one (on
    ///     the reading thread, before the frame is drawn).
    ///   - frameObserver: told of each frame before it is drawn, in frame order, on the reading
    ///     thread; what it returns is selected in that frame (a view's selection).
    ///   - mapData: asked before each frame, in frame order, on the reading thread: map data to
    ///     draw from that frame on in place of the settings' POIs, route, style and banner (an
    ///     ``ARSession``'s, which can change while footage runs). When its `layoutVersion` changes
    ///     the route is followed from its start again (if ``AnnotationSettings/followsRoute``).
    ///     Which frame first shows a change depends on when it is made; nil keeps the settings'.
    ///   - centreObserver: with ``AnnotationSettings/selectsCenter``, told of the marker drawn
    ///     nearest each frame's centre (the frame's number and the POI's id), in frame order, as
    ///     frames are written.
    ///   - drawnObserver: told of what was drawn on each annotated frame (its markers, labels and
    ///     navigation), in frame order, as frames are written.
    /// - Returns: how it ended and what was done.
    public func run(
        isInterrupted: @escaping @Sendable () -> Bool = { false },
        onWarning: @escaping @Sendable (String) -> Void = { _ in },
        frameObserver: (@Sendable (FrameInfo) -> Set<String>?)? = nil,
        mapData: (@Sendable () -> MapDataSnapshot?)? = nil,
        centreObserver: (@Sendable (_ frame: Int, _ id: String) -> Void)? = nil,
        drawnObserver: (@Sendable (_ frame: Int, _ drawn: FrameAnnotation) -> Void)? = nil
    ) -> Summary {
        let started = ContinuousClock.now
        // A stop asked for while a pipe's writer is silent ends the read at once.
        reader.interruptWaiting(when: isInterrupted)
        let pipeline = makeOrderedPipeline(
            capacity: reader.kind == .y4m || reader.kind == .video ? workers + 1 : workers * 2, onWarning: onWarning,
            centreObserver: centreObserver, drawnObserver: drawnObserver)
        var navigator = route.map { RouteNavigator(route: $0) }
        var previous: (pose: DevicePose, time: Date)?
        var track: [SIMD2<Double>] = []
        var pending = first
        var stopped = false
        var layoutVersion: Int?
        while let frame = pending ?? reader.next() {
            pending = nil
            if state.withLock({ $0.failure != nil || $0.readerClosed }) { break }
            if isInterrupted() {
                stopped = true
                break
            }
            state.withLock { $0.progress.read += 1 }
            let map = mapData?()
            if let map, map.layoutVersion != layoutVersion {
                // The route may have changed: followed from its start. (The first snapshot is
                // the data the pipeline was built from: its route is the one given.)
                if layoutVersion != nil {
                    navigator = settings.followsRoute ? map.data.route.map { RouteNavigator(route: $0) } : nil
                }
                layoutVersion = map.layoutVersion
            }
            var (frameTime, pose, headingAccuracy) = lookUp(frame)
            let utcOffset = utcOffset(of: frame)
            if let warning = Self.geotagWarning(frame, poses: poses, posed: pose != nil) { onWarning(warning) }
            if settings.fieldOfViewFromPhotos, frame.fieldOfView == nil, pose != nil {
                // Drawn for a guessed field of view, every label would be in the wrong place.
                pose = nil
                headingAccuracy = nil
                onWarning(
                    "frame \(frame.index)\(frame.name.map { " (\($0))" } ?? ""): no lens data in its EXIF "
                        + "(FocalLengthIn35mmFormat, FocalLength), so its field of view is unknown: passed through "
                        + "unannotated (give the field of view or a calibration)")
            }
            var speed = settings.groundSpeed
            if let pose, let previous, let frameTime, frameTime > previous.time {
                let moved = LocalFrame(
                    latitude: previous.pose.latitude, longitude: previous.pose.longitude, altitude: 0
                )
                .enu(latitude: pose.latitude, longitude: pose.longitude, altitude: 0).horizontalDistance
                speed = moved / frameTime.timeIntervalSince(previous.time)
            }
            var navigation: NavigationInfo?
            if let pose, navigator != nil {
                navigation = navigator?.update(
                    latitude: pose.latitude, longitude: pose.longitude, speed: speed,
                    time: frameTime?.timeIntervalSince1970 ?? Double(frame.index))
            }
            if let pose, let frameTime { previous = (pose, frameTime) }
            let shown = navigator?.hasArrived == false ? navigation : nil
            if settings.minimap != nil, let pose {
                // The trail, in frame order (so every worker draws the same one).
                track.append(SIMD2(pose.latitude, pose.longitude))
                if track.count > 600 { track.removeFirst(track.count - 600) }
            }
            let selected = frameObserver?(FrameInfo(index: frame.index, time: frameTime, pose: pose, navigation: shown))
            // The frame handed over, not copied: this loop holding it while a worker draws on
            // its planes would make the drawing copy them (copy-on-write).
            pipeline.submit(
                AnnotationJob(
                    frame: consume frame, time: frameTime, utcOffset: utcOffset, pose: pose, navigation: shown,
                    speed: speed,
                    headingAccuracy: headingAccuracy, selected: selected, track: track, map: map))
        }
        // Ctrl-C while waiting for input (a pipe that then closed) still counts as stopping.
        if !stopped && isInterrupted() { stopped = true }
        pipeline.finish()
        let (progress, failure, readerClosed) = state.withLock { ($0.progress, $0.failure, $0.readerClosed) }
        var ending: Ending = stopped ? .interrupted : .completed
        if readerClosed {
            sink.discard()
            ending = .readerClosed
        } else if let failure {
            sink.discard()
            ending = .failed(failure)
        } else if stopped && sink.written == 0 {
            // Stopped before the first frame: an empty MJPEG file (or a Y4M header alone) is no
            // output, and a later step would take it for one.
            sink.discard()
        } else {
            do {
                try sink.finish(readToEnd: !stopped)
            } catch {
                ending = .failed(OutputFailure(description: error.description, cannotCreate: error.kind == .create))
            }
        }
        return Summary(
            ending: ending, progress: progress, truncated: reader.truncatedFrames, notes: reader.notes,
            seconds: Self.seconds(started.duration(to: .now)), shortfall: reader.shortfall)
    }

    /// What a user should know of a geotagged photo's pose: no image direction (passed through),
    /// or a magnetic one no declination could correct (drawn as if true).
    private static func geotagWarning(_ frame: FootageFrame, poses: Poses, posed: Bool) -> String? {
        guard case .geotags = poses, let tag = frame.geotag else { return nil }
        let name = frame.name.map { " (\($0))" } ?? ""
        if !posed {
            return "frame \(frame.index)\(name): no image direction in its EXIF (GPSImgDirection), so where it looks "
                + "is unknown: passed through unannotated (give its orientation)"
        }
        return GeotagHeading(tag, at: frame.captureTime?.date)?.warning.map { "frame \(frame.index)\(name): \($0)" }
    }

    /// The zone the frame's time is shown in: the clock's when a clock times it, else the frame's
    /// own EXIF time's.
    private func utcOffset(of frame: FootageFrame) -> Int? {
        switch poses {
        case .track: clockUTCOffset
        case .fixed(_, let clock) where clock != nil: clockUTCOffset
        case .fixed, .geotags: frame.captureTime?.source.utcOffset
        }
    }

    /// The frame's time, pose and heading accuracy.
    private func lookUp(_ frame: FootageFrame) -> (Date?, DevicePose?, Double?) {
        switch poses {
        case .track(let timeline, let clock):
            let time = clock.time(of: frame)
            guard case .pose(let estimate) = timeline.pose(at: time) else { return (time, nil, nil) }
            return (time, estimate.pose, estimate.headingAccuracy)
        case .geotags(let geoidSeparation, let given):
            // A photo without an EXIF time has none (its sidecar line and banner say so).
            let time = frame.captureTime?.date
            guard let tag = frame.geotag else { return (time, nil, nil) }
            let orientation: DeviceOrientation
            if let direction = GeotagHeading(tag, at: time) {
                // What the photo measured (a DJI gimbal's pitch and roll) before what was given.
                orientation = DeviceOrientation(
                    heading: direction.heading, pitch: direction.pitch ?? given?.pitch ?? 0,
                    roll: direction.roll ?? given?.roll ?? 0)
            } else if let given {
                orientation = given
            } else {
                return (time, nil, nil)
            }
            let pose = DevicePose(
                latitude: tag.latitude, longitude: tag.longitude,
                altitude: tag.ellipsoidalAltitude(assumingGeoidSeparation: geoidSeparation).altitude,
                orientation: orientation)
            return (time, pose, nil)
        case .fixed(let pose, let clock):
            return (clock?.time(of: frame) ?? frame.captureTime?.date, pose, nil)
        }
    }

    private func makeOrderedPipeline(
        capacity: Int, onWarning: @escaping @Sendable (String) -> Void,
        centreObserver: (@Sendable (_ frame: Int, _ id: String) -> Void)?,
        drawnObserver: (@Sendable (_ frame: Int, _ drawn: FrameAnnotation) -> Void)?
    ) -> OrderedPipeline<AnnotationJob, AnnotationResult> {
        let (settings, sink) = (self.settings, self.sink)
        return OrderedPipeline<AnnotationJob, AnnotationResult>(
            // Frames in flight: two per worker for JPEG (a few hundred kB each), one more than the
            // workers for Y4M (megabytes each: 4 MB at 1080p 4:2:2; the writer holds the extra one).
            workers: workers, capacity: capacity,
            makeWorker: { _ in
                let worker = AnnotationWorker(settings: settings)
                return { (job: consuming AnnotationJob) in worker.process(job) }
            },
            deliver: { [self] sequence, result in
                // The state is locked only to read and count: the progress line and the producer
                // read it, and neither should wait while a frame is being written.
                guard state.withLock({ $0.failure == nil && !$0.readerClosed }) else { return }
                let record: SidecarRecord
                switch result {
                case .corrupt(let why, let skipped):
                    state.withLock { $0.progress.corrupt += 1 }
                    // Numbered as in the sidecar (from 0), with the photo's name in a folder.
                    let name = skipped.file.map { " (\(($0 as NSString).lastPathComponent))" } ?? ""
                    onWarning("frame \(sequence)\(name): cannot be decoded (\(why)); skipped")
                    record = skipped
                case .frame(
                    let frame, let annotated, let written, let time, let centre, let timing, let splice, let drawn):
                    do throws(FrameWriteError) {
                        // A file name's strftime conversions use the frame's time, else the time
                        // of writing (a photo without an EXIF time), as fswebcam's do.
                        try sink.write(frame, date: time ?? Date(), timing: timing)
                        state.withLock { state in
                            state.progress.written += 1
                            if annotated { state.progress.annotated += 1 }
                            state.progress.splicing.record(splice)
                        }
                    } catch {
                        state.withLock { state in
                            switch error {
                            // The program reading stdout went away (`| head`): stop, quietly.
                            case .readerClosed: state.readerClosed = true
                            // A numbered frame's name taken (73) is not a failing disk (74).
                            case .output(let output):
                                state.failure = OutputFailure(
                                    description: output.description, cannotCreate: output.kind == .create)
                            case .video(let video):
                                state.failure = OutputFailure(
                                    description: video.description, cannotCreate: video.cannotStart)
                            default: state.failure = OutputFailure(description: error.description, cannotCreate: false)
                            }
                        }
                        return
                    }
                    record = written
                    if let centre { centreObserver?(sequence, centre) }
                    if let drawn { drawnObserver?(sequence, drawn) }
                }
                do throws(OutputError) {
                    try sink.record(record)
                } catch {
                    state.withLock { state in
                        state.failure = OutputFailure(
                            description: error.description, cannotCreate: error.kind == .create)
                    }
                }
            })
    }

    static func seconds(_ duration: Duration) -> Double { duration.seconds }
}
