import ARCompositor
import ArcaptureCore
import CaptureKit
import Footage
import Foundation
import GeoAR
import Positioning

/// `arcapture sync`: a dry run of time synchronisation between a GPS track and footage.
enum SyncCommand {
    static let track = Option.text(
        "track", "FILE",
        help:
            "A track: GPX, KML/KMZ, FIT, CSV, NMEA, a DJI .SRT or a video's telemetry (chosen by content; "
            + "gzip-compressed too); by default the --footage video's own."
    )
    static let footage = Option.text(
        "footage", "PATH",
        help:
            "A video file, a Y4M file, an MJPEG stream or a folder of JPEGs; repeated, the video files of one recording "
            + "its camera split (GoPro's GX010123.MP4, GX020123.MP4…), in recording order, as one video.")
    static let frames = Option.integer(
        "frames", "N", in: 1...1_000_000_000, help: "Instead of --footage: this many frames (with --fps).")
    static let json = Flag("json", help: "Print the report as JSON (schema arcapture.sync/1).")

    static let spec = CommandSpec(
        name: "sync",
        overview: """
            Check how footage lines up with a GPS track. Before a long run, it prints the track's and the \
            footage's time spans, their overlap, and the interpolated pose at the first, middle and last frame.
            """,
        usage:
            "[--track FILE] (--footage PATH… | --frames N) [--fps N] [--start TIME] [--offset S|auto] [--speed X] [--json]",
        arguments: [],
        options: [track.spec, TrackColumnsOption.option.spec, footage.spec, frames.spec] + FootageTimeOptions.specs
            + PoseOptions.specs + [json.spec],
        discussion: """
            Frame i is taken at start + i / fps × speed + offset. The pose for a frame is interpolated \
            from the fixes around that time (linearly in ENU; headings along the shorter arc); a frame \
            further than --max-extrapolation from the track, or inside a gap longer than --max-gap, has \
            no pose, and the report says why.

            When the footage has GPS of its own (a GoPro's) and --track is another file, the offset that \
            lines the two up is found by matching their positions over time, with its spread over windows \
            of the footage and a note when it is close to a time zone; --offset auto applies it (refused, \
            64, when it is uncertain: laps, too little motion, not the same trip).

            EXIT STATUS:
              0   the report was printed and some frames have a pose
              1   no frame has a pose: the footage and the track do not overlap
              64  bad command line, or --offset auto found no offset it can trust (the report says why)
              65  an input file is malformed (the message names the file, the line and the problem)
              66  an input file is missing, a folder or unreadable

            EXAMPLE:
              arcapture sync --track samples/gpx/around-visnjan-with-car.gpx --frames 300 --fps 30 \\
                  --start 2020-12-18T06:17:00Z
            """)

    static func run(_ arguments: [String]) async -> ExitStatus {
        let parsed: ParsedArguments
        let time: FootageTimeOptions
        let pose: PoseOptions
        let trackPath: String?
        let footagePaths: [String]
        let trackColumns: CSVColumnMap?
        do throws(UsageError) {
            parsed = try ArgumentParser.parse(arguments, spec: spec)
            time = try FootageTimeOptions(parsed)
            pose = try PoseOptions(parsed)
            guard parsed.isGiven(Self.footage) != parsed.isGiven(Self.frames) else {
                throw UsageError("give the footage: --footage PATH, or --frames N with --fps")
            }
            // A video that carries its own GPS (GoPro's GPMF) is its own track, as for annotate.
            footagePaths = parsed.texts(Self.footage)
            // (What ExifTool reads of one arcapture does not read itself too, a dashcam's.)
            trackPath =
                parsed.text(Self.track)
                ?? (footagePaths.first.map(FootageReader.isVideoFile) == true ? footagePaths.first : nil)
            guard trackPath != nil else {
                throw UsageError("--track FILE is required (unless --footage is a video with its own GPS)")
            }
            trackColumns = try parsed.value(TrackColumnsOption.option)
            if trackColumns != nil, !parsed.isGiven(Self.track) {
                throw UsageError("--track-columns says where a CSV --track's columns are; give the --track")
            }
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        let ownTrack = trackPath != nil && trackPath == footagePaths.first
        do {
            let track: RecordedTrack
            do {
                track =
                    try ownTrack
                    ? TrackFile.load(chapters: footagePaths, start: time.timing.givenStart)
                    : TrackFile.load(trackPath ?? "", csvColumns: trackColumns)
            } catch .malformed(let file, _, let problem)
                where ownTrack && !parsed.isGiven(Self.track) && problem.hasSuffix(EmbeddedTelemetry.noGPS)
            {
                // A video without GPS of its own: the track the user must give, and why.
                Terminal.error("--track FILE is required: \(file) has \(problem)")
                return .usage
            }
            for warning in track.warnings { Terminal.warning(warning) }
            if let heightWarning = track.heightWarning { Terminal.warning(heightWarning) }
            if track.warningCount > track.warnings.count {
                Terminal.warning("\(track.warningCount - track.warnings.count) more warnings not shown")
            }
            let info = try footagePaths.isEmpty ? nil : FootageInfo.probe(chapters: footagePaths)
            let frames: Int
            if let info {
                frames = info.frameCount
            } else {
                do {
                    frames = try parsed.value(Self.frames) ?? 0
                } catch {
                    Terminal.error(error.message)
                    return .usage
                }
            }
            var clock: FootageClock
            let origin: String
            do {
                (clock, origin) = try time.clock(footage: info, track: track)
            } catch {
                Terminal.error(error.message)
                return .usage
            }
            // Footage with GPS of its own against a separate track: the offset its motion gives.
            let match: SyncReport.OffsetMatch?
            var refusal: String?
            switch time.timing.offsetMatch(
                footage: footagePaths.first, chapters: Array(footagePaths.dropFirst()), isTrack: ownTrack, clock: clock,
                track: track, maximumGap: pose.limits.maximumGap)
            {
            case .none: match = nil
            case .some(.failure(let error)):
                guard time.timing.findsOffset else {
                    match = SyncReport.OffsetMatch(problem: error.description)
                    break
                }
                if case .offsetNotFound = error {
                    match = SyncReport.OffsetMatch(problem: error.description)
                    refusal = FootageTimeOptions.usageError(error, suggestsSync: false).message
                } else {
                    Terminal.error(FootageTimeOptions.usageError(error, suggestsSync: false).message)
                    return .usage
                }
            case .some(.success(let estimate)):
                let applies = time.timing.findsOffset && estimate.isReliable
                if applies { clock.offset = estimate.offset }
                if time.timing.findsOffset, !estimate.isReliable {
                    refusal =
                        FootageTimeOptions.usageError(
                            .offsetUncertain(footage: footagePaths.first ?? "", estimate), suggestsSync: false
                        ).message
                }
                match = SyncReport.OffsetMatch(estimate, applied: applies)
            }
            let (timeline, orientation) = try pose.timeline(for: track)
            var report = makeReport(
                track: track, info: info, frames: frames, clock: clock, origin: origin, timeline: timeline,
                orientation: orientation)
            report.offsetMatch = match
            if footagePaths.count > 1 { report.footage.files = footagePaths }
            Terminal.out(
                parsed.isSet(Self.json) ? JSONOutput.encode(report) : SyncReportText.render(report),
                terminator: parsed.isSet(Self.json) ? "\n" : "")
            if let refusal {
                // The report shows what was found; the offset was not applied.
                Terminal.error(refusal)
                return .usage
            }
            return report.overlap.framesWithPose > 0 ? .ok : .failure
        } catch {
            Terminal.error(error.description)
            if error.cannotBeOpened { return .noInput }
            return .dataError
        }
    }

    static func makeReport(
        track: RecordedTrack, info: FootageInfo?, frames: Int, clock: FootageClock, origin: String,
        timeline: PoseTimeline, orientation: String
    ) -> SyncReport {
        var largestGap = 0.0
        var largestGapAt: Date?
        for (a, b) in zip(track.fixes, track.fixes.dropFirst()) where b.time.timeIntervalSince(a.time) > largestGap {
            largestGap = b.time.timeIntervalSince(a.time)
            largestGapAt = a.time
        }
        let span = track.timeSpan
        let first = clock.time(ofFrame: 0)
        let last = clock.time(ofFrame: max(0, frames - 1))
        var withPose = 0
        var reasons: [String: Int] = [:]
        for index in 0..<frames {
            switch timeline.pose(at: clock.time(ofFrame: index)) {
            case .pose: withPose += 1
            case .noPose(let reason): reasons[category(reason), default: 0] += 1
            }
        }
        var overlapSeconds = 0.0
        if let span {
            overlapSeconds = max(0, min(span.upperBound, last).timeIntervalSince(max(span.lowerBound, first)))
        }
        let footageSeconds = last.timeIntervalSince(first)
        let samples = [("first", 0), ("middle", max(0, frames - 1) / 2), ("last", max(0, frames - 1))].map {
            label, index in
            framePose(label: label, index: index, time: clock.time(ofFrame: index), timeline: timeline)
        }
        return SyncReport(
            track: SyncReport.Track(
                file: track.file, fixes: track.fixes.count, start: span.map { UTCTime.format($0.lowerBound) },
                end: span.map { UTCTime.format($0.upperBound) },
                durationS: span.map { $0.upperBound.timeIntervalSince($0.lowerBound) } ?? 0, largestGapS: largestGap,
                largestGapAt: largestGapAt.map(UTCTime.format), warnings: track.warningCount, summary: track.summary),
            footage: SyncReport.Footage(
                source: info?.path ?? "--frames \(frames)", kind: info?.kind.rawValue ?? "frames", frames: frames,
                fps: clock.framesPerSecond, speed: clock.speed, offsetS: clock.offset, startOrigin: origin,
                firstFrame: UTCTime.format(first), lastFrame: UTCTime.format(last), durationS: footageSeconds,
                notes: info?.notes ?? []),
            orientation: orientation,
            overlap: SyncReport.Overlap(
                seconds: overlapSeconds,
                percentOfFootage: footageSeconds > 0
                    ? overlapSeconds / footageSeconds * 100 : (withPose > 0 ? 100 : 0),
                framesWithPose: withPose, framesWithoutPose: frames - withPose, withoutPoseByReason: reasons),
            samples: frames == 0 ? [] : samples)
    }

    private static func framePose(label: String, index: Int, time: Date, timeline: PoseTimeline) -> SyncReport.FramePose
    {
        var sample = SyncReport.FramePose(label: label, index: index, time: UTCTime.format(time))
        switch timeline.pose(at: time) {
        case .noPose(let reason): sample.noPose = reason.description
        case .pose(let estimate):
            sample.latitude = estimate.pose.latitude
            sample.longitude = estimate.pose.longitude
            sample.altitudeM = estimate.pose.altitude
            sample.altitudeApproximate = estimate.altitudeIsApproximate
            sample.headingDeg = estimate.pose.orientation.heading
            sample.pitchDeg = estimate.pose.orientation.pitch
            sample.rollDeg = estimate.pose.orientation.roll
            sample.headingAccuracyDeg = estimate.headingAccuracy
            sample.extrapolationS = estimate.extrapolation
        }
        return sample
    }

    /// Reasons grouped for counting (the seconds differ frame by frame).
    private static func category(_ reason: NoPoseReason) -> String {
        switch reason {
        case .noPositions: "without positions"
        case .beforeTrack: "before the track"
        case .afterTrack: "after the track"
        case .positionGap: "in gaps between positions"
        case .noOrientation: "without an orientation nearby"
        case .orientationGap: "in gaps between orientations"
        }
    }
}
