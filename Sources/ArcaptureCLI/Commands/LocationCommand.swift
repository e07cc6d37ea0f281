import ArcaptureCore
import CaptureKit
import Footage
import Foundation
import Positioning
import Synchronization

/// `arcapture location`: watch a location source and print what it says, as `gpspipe` and `cgps`
/// do for gpsd: a smoke test for a GPS on a bench.
enum LocationCommand {
    static let count = Option.integer("count", "N", in: 1...1_000_000, help: "Stop after this many fixes.")
    static let duration = Option.number(
        "duration", "SECONDS", in: 0.1...86_400 * 365, defaultText: "10 (files: until the end)",
        help: "Stop after this long.")
    static let speed = Option.number(
        "speed", "FACTOR", in: 0.001...100_000, defaultText: "all at once",
        help: "Replay a file in real time, this many times faster.")
    static let json = Flag("json", help: "One JSON object per event (JSON lines).")

    static let spec = CommandSpec(
        name: "location",
        overview: """
            Watch a GPS or a recorded track. It prints what a location source (gpsd, a serial NMEA \
            receiver, or a track file: GPX, KML, FIT, CSV, NMEA, a DJI .SRT, a video's telemetry) reports as \
            it comes: status changes, fixes, headings, warnings.
            """,
        usage:
            "SOURCE [--count N] [--duration SECONDS] [--speed X] [--json]\n  or: arcapture location CHAPTER.mp4 CHAPTER.mp4… [options]",
        arguments: [("SOURCE", LocationArgument.forms)],
        options: [count.spec, duration.spec, speed.spec, TrackColumnsOption.option.spec, json.spec],
        discussion: """
            Status changes say what is wrong: 'unavailable: cannot connect to gpsd at 127.0.0.1:2947: \
            Connection refused' means no gpsd is running there; 'no-fix' means the receiver answers \
            but has no position yet.

            EXIT STATUS:
              0   at least one fix arrived
              1   the source answered but gave no fix in time
              64  bad command line
              65  a file is malformed
              66  a file is missing, a folder or unreadable
              69  the source could not be reached
              130 interrupted (Ctrl-C)

            EXAMPLES:
              arcapture location gpsd://127.0.0.1:2947 --count 5
              arcapture location /dev/ttyACM0@9600 --duration 30
              arcapture location samples/nmea/skytraq-PX1172RH_DS.log --json
            """)

    static func run(_ arguments: [String]) async -> ExitStatus {
        let argument: LocationArgument
        let chapters: [String]
        let count: Int?
        let duration: Double?
        let speed: Double?
        let json: Bool
        let trackColumns: CSVColumnMap?
        do throws(UsageError) {
            // Several video files are one recording's chapters, read as one track.
            let parsed = try ArgumentParser.parse(arguments, spec: spec, maxPositionals: .max)
            guard let first = parsed.positionals.first else {
                throw UsageError("give one SOURCE: \(LocationArgument.forms)")
            }
            chapters = parsed.positionals
            if chapters.count > 1, let other = chapters.first(where: { !FootageReader.isVideoFile($0) }) {
                throw UsageError(
                    "'\(other)' is not a video file: several SOURCEs are the video files of one recording its camera "
                        + "split, in order; give one SOURCE otherwise: \(LocationArgument.forms)")
            }
            argument = try LocationArgument(parsing: first, option: "location")
            count = try parsed.value(Self.count)
            duration = try parsed.value(Self.duration)
            speed = try parsed.value(Self.speed)
            json = parsed.isSet(Self.json)
            trackColumns = try parsed.value(TrackColumnsOption.option)
            if trackColumns != nil, !argument.isRecorded {
                throw UsageError("--track-columns says where a CSV file's columns are; the SOURCE is not a file")
            }
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        let source: any LocationSource
        do throws(InputFileError) {
            let pace: ReplayPace = speed.map { .realTime(speed: $0) } ?? .immediate
            source =
                chapters.count > 1
                ? RecordedLocationSource(track: try TrackFile.load(chapters: chapters), pace: pace)
                : try argument.makeSource(pace: pace, csvColumns: trackColumns)
        } catch {
            Terminal.error(error.description)
            if error.cannotBeOpened { return .noInput }
            return .dataError
        }
        let isFile = if case .file = argument { true } else { false }
        let printer = LocationEventPrinter(json: json, fixLimit: count)
        let observation = source.addObserver { event in printer.print(event) }
        let interrupted = Atomic(false)
        let deadline = Date().addingTimeInterval(duration ?? (isFile ? 86_400 * 365 : 10))
        await InterruptSignal.handling(
            onSignal: { _ in interrupted.store(true, ordering: .relaxed) },
            body: {
                source.start()
                while Date() < deadline && !printer.isDone && !interrupted.load(ordering: .relaxed) {
                    if isFile && source.status == .ended { break }
                    try? await Task.sleep(for: .milliseconds(20))
                }
                source.stop()
            })
        observation.cancel()
        if interrupted.load(ordering: .relaxed) { return .interrupted }
        if printer.fixes > 0 { return .ok }
        if case .unavailable = source.status { return .unavailable }
        Terminal.error("no fix from \(source.name) (status: \(source.status))")
        return .failure
    }
}
