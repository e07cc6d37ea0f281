import CaptureKit
import Foundation

/// `arcapture check`: the camera smoke test.
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        overview: """
            Test whether a camera works. Walks the authorization flow (present, permitted, not busy, a \
            capture node), negotiates a format, streams N frames, and reports the format chosen and why, \
            the measured frame rate against the applied one, dropped and invalid frames, timestamp \
            monotonicity and jitter, the time to the first frame, and whether the picture is frozen, \
            black or one flat colour.
            """,
        usage: """
            [--device PATH] [--frames N] [--format FOURCC|auto] [--size WxH] [--fps N] [--libv4l2] \
            [--json] [--junit FILE] [more options]
            """,
        arguments: [],
        options: CheckOptions.specs,
        discussion: """
            EXIT STATUS:
              0    every check passed
              1    a check failed (frame rate, drops, timestamps, frame validity, or a frozen, black or flat picture)
              64   bad command line
              69   the device is missing, gone, not a capture node, unplugged while streaming, or lacks the format
              73   the --stream-to or --junit file cannot be written
              74   the stream failed or stalled (no frame within --timeout)
              75   the device is busy: another process is streaming from it
              77   permission denied
              130  interrupted (Ctrl-C)

            EXAMPLES:
              arcapture check
              arcapture check --device /dev/video2 --size 1280x720 --fps 30 --frames 90 --junit camera.xml
              arcapture check --wait 30 --json      # wait for a camera to be plugged in
            """)

    static func run(_ arguments: [String]) async -> ExitStatus {
        let options: CheckOptions
        do {
            options = try CheckOptions(ArgumentParser.parse(arguments, spec: spec))
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        let run: CheckRun
        do {
            run = try CheckRun(options: options, path: options.devicePath ?? defaultDevicePath())
        } catch {
            Terminal.error(error.description)
            return .cannotCreate
        }
        let recorder = run.recorder
        return await InterruptSignal.handling(onSignal: { _ in recorder.interrupt() }, body: { await run.execute() })
    }

    /// The first node this process may capture from; else the first that might be a camera (denied,
    /// busy, gone), so the report says what is wrong with it; else /dev/video0. Only the authorization
    /// probe runs here, not a full inspection of every node.
    static func defaultDevicePath() -> String {
        let nodes = CaptureDevice.videoNodePaths().map(CaptureDevice.authorization(for:))
        if let usable = nodes.first(where: { $0.status == .authorized }) { return usable.path }
        let candidate = nodes.first { authorization in
            switch authorization.problem {
            case .notACaptureDevice, .notAVideoDevice: false
            default: true
            }
        }
        return candidate?.path ?? "/dev/video0"
    }
}
