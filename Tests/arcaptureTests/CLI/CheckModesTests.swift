import CaptureKit
import Foundation
import Testing

@testable import ArcaptureCLI
@testable import ArcaptureCore

/// `check --all-formats`: which modes a camera advertises, which are tried first under
/// `--max-modes`, and how each one's result is judged and reported. (Streaming each mode is the
/// VM suite's: `VividVMTests`' "every mode" tests, on vivid.)
@Suite("check --all-formats: every mode")
struct CheckModesTests {
    static func size(_ width: UInt32, _ height: UInt32) -> FrameSize { FrameSize(width: width, height: height) }

    /// A webcam's listing: YUYV at three discrete sizes (30 fps at the two small ones, 5 at the
    /// large one), MJPEG at two, and a sensor's stepwise range; a format without sizes.
    static let device = CaptureDevice(
        path: "/dev/video0", stablePaths: [],
        authorization: Authorization(path: "/dev/video0", status: .authorized, problem: nil),
        capability: nil,
        formats: [
            SupportedFormat(
                pixelFormat: PixelFormatDescription(fourCC: .yuyv, description: "YUYV 4:2:2"),
                frameSizes: [
                    SupportedFrameSize(
                        sizes: .discrete(size(640, 480)),
                        frameIntervals: .discrete([FrameInterval(numerator: 1, denominator: 30)])),
                    SupportedFrameSize(
                        sizes: .discrete(size(320, 240)),
                        frameIntervals: .discrete([
                            FrameInterval(numerator: 1, denominator: 15), FrameInterval(numerator: 1, denominator: 30),
                        ])),
                    SupportedFrameSize(
                        sizes: .discrete(size(1920, 1080)),
                        frameIntervals: .discrete([FrameInterval(numerator: 1, denominator: 5)])),
                ]),
            SupportedFormat(
                pixelFormat: PixelFormatDescription(fourCC: .mjpeg, description: "Motion-JPEG", isCompressed: true),
                frameSizes: [
                    SupportedFrameSize(sizes: .discrete(size(1920, 1080)), frameIntervals: nil),
                    SupportedFrameSize(
                        sizes: .discrete(size(640, 480)),
                        frameIntervals: .discrete([FrameInterval(numerator: 1, denominator: 30)])),
                ]),
            SupportedFormat(
                pixelFormat: PixelFormatDescription(fourCC: "GREY", description: "Greyscale"),
                frameSizes: [
                    SupportedFrameSize(
                        sizes: .stepwise(minimum: size(16, 16), maximum: size(1280, 960), step: size(16, 16)),
                        frameIntervals: .continuous(
                            minimum: FrameInterval(numerator: 1, denominator: 60),
                            maximum: FrameInterval(numerator: 1, denominator: 1)))
                ]),
            SupportedFormat(pixelFormat: PixelFormatDescription(fourCC: "NV12", description: "NV12"), frameSizes: []),
        ],
        controls: [], currentFormat: nil, currentFrameInterval: nil)

    @Test("each format at each discrete size and both ends of a range, at the fastest rate listed there")
    func advertisedModes() {
        let modes = Self.device.modes
        #expect(
            modes.map { "\($0.pixelFormat) \($0.size) \($0.framesPerSecond.map { String($0) } ?? "-")" } == [
                "YUYV 640x480 30.0", "YUYV 320x240 30.0", "YUYV 1920x1080 5.0", "MJPG 1920x1080 -",
                "MJPG 640x480 30.0", "GREY 16x16 60.0", "GREY 1280x960 60.0",
            ])
        #expect(modes.filter(\.isCompressed).map(\.pixelFormat) == [.mjpeg, .mjpeg])
    }

    @Test("under --max-modes, every format's largest size goes first, then its smallest, then the rest")
    func order() {
        let modes = Self.device.modes
        let names = { (modes: [CaptureMode]) in modes.map { "\($0.pixelFormat) \($0.size)" } }
        #expect(
            names(CheckModes.order(modes, limit: 100)) == [
                "YUYV 1920x1080", "MJPG 1920x1080", "GREY 1280x960", "YUYV 320x240", "MJPG 640x480", "GREY 16x16",
                "YUYV 640x480",
            ])
        #expect(names(CheckModes.order(modes, limit: 2)) == ["YUYV 1920x1080", "MJPG 1920x1080"])
    }

    static let yuyv640 = CaptureMode(pixelFormat: .yuyv, size: size(640, 480), framesPerSecond: 30)
    static let mjpeg1080 = CaptureMode(
        pixelFormat: .mjpeg, isCompressed: true, size: size(1920, 1080), framesPerSecond: 30)

    static func negotiated(_ mode: CaptureMode, size: FrameSize? = nil) -> NegotiatedFormat {
        let size = size ?? mode.size
        return NegotiatedFormat(
            request: FormatRequest(pixelFormat: mode.pixelFormat, size: mode.size),
            choice: FormatChoice(
                pixelFormat: mode.pixelFormat, size: size, frameInterval: FrameInterval(numerator: 1, denominator: 30),
                explanation: []),
            format: V4L2Format(
                pixelFormat: mode.pixelFormat, width: size.width, height: size.height, bytesPerLine: size.width * 2,
                sizeImage: size.width * size.height * 2),
            frameInterval: FrameInterval(numerator: 1, denominator: 30), bufferCount: 4, usesLibV4L2: false,
            adjustments: [])
    }

    /// The sweep of a camera whose 1920x1080 MJPEG the driver turns into 1280x720 while its
    /// 640x480 YUYV streams, with one more mode over --max-modes.
    static var sweep: CheckModes {
        let extra = CaptureMode(pixelFormat: .yuyv, size: size(320, 240), framesPerSecond: 30)
        var sweep = CheckModes(advertised: [yuyv640, extra, mjpeg1080], limit: 2)
        sweep.trials = [
            CheckModes.Trial(
                mode: mjpeg1080, negotiated: negotiated(mjpeg1080, size: size(1280, 720)), framesReceived: 5,
                timeToFirstFrame: .milliseconds(120), measuredFPS: 30),
            CheckModes.Trial(
                mode: yuyv640, negotiated: negotiated(yuyv640), framesReceived: 5, timeToFirstFrame: .milliseconds(35),
                measuredFPS: 29.97),
        ]
        return sweep
    }

    @Test("a mode the driver changes, fails to start or sends invalid frames at fails; one that streams passes")
    func verdicts() {
        let trials = Self.sweep.trials
        #expect(trials[0].problem == "asked for 1920x1080, the driver gave 1280x720")
        #expect(trials[1].problem == nil)
        var invalid = trials[1]
        invalid.invalidFrames = 2
        invalid.firstInvalid = "614399 bytes, the format needs 614400"
        #expect(invalid.problem == "2 of 5 frames invalid (first: 614399 bytes, the format needs 614400)")
        let failed = CheckModes.Trial(
            mode: Self.yuyv640,
            error: .streamingFailed(
                path: "/dev/video0", SystemCallError(call: "VIDIOC_STREAMON", errno: Errno(rawValue: EINVAL))))
        #expect(failed.problem?.contains("VIDIOC_STREAMON") == true, "\(failed.problem ?? "")")
        // A failure no later mode could get past ends the sweep and is the check's error.
        var gone = Self.sweep
        gone.trials.append(CheckModes.Trial(mode: Self.yuyv640, error: .disconnected(path: "/dev/video0")))
        #expect(gone.blockingError == .disconnected(path: "/dev/video0"))
        var streamOn = Self.sweep
        streamOn.trials.append(failed)
        #expect(streamOn.blockingError == nil)
    }

    @Test("the report: a modes check (status 1 when one fails), every advertised mode in JSON and in a table")
    func report() throws {
        var evaluation = try CheckEvaluationTests.evaluation()
        evaluation.modes = Self.sweep
        let report = evaluation.report()
        #expect(report.exitStatus == 1 && report.result == "fail")
        let item = try #require(report.checks.last)
        #expect(item.name == "modes" && item.status == .fail)
        #expect(
            item.detail
                == "1 of 2 modes tried streamed 5 valid frames as advertised (3 advertised, 1 over --max-modes 2)")
        #expect(item.notes == ["MJPG 1920x1080@30: asked for 1920x1080, the driver gave 1280x720"])
        let section = try #require(report.modes.value)
        #expect((section.advertised, section.tried, section.maxModes, section.framesPerMode) == (3, 2, 2, 5))
        #expect(section.modes.map(\.result) == ["pass", "not_tried", "fail"])
        #expect(section.modes[0].timeToFirstFrameMs.value == 35 && section.modes[0].fpsMeasured.value == 29.97)
        let json = JSONOutput.encode(report)
        #expect(json.contains("\"max_modes\" : 2") || json.contains("\"max_modes\":2"), "\(json.prefix(400))")
        let text = CheckReportText.render(report)
        #expect(text.contains("modes (--all-formats): 2 of 3 advertised tried, 5 frames each\n"))
        #expect(text.contains("  YUYV    640x480    30     PASS      35.0 ms      29.97 fps\n"), "\(text)")
        #expect(text.contains("  YUYV    320x240    30     NOT TRIED -            -\n"), "\(text)")
        #expect(
            text.contains(
                "  MJPG    1920x1080  30     FAIL      120.0 ms     30 fps  asked for 1920x1080, the driver gave 1280x720\n"
            ),
            "\(text)")
        // Without --all-formats: no modes check, and null in JSON.
        let plain = try CheckEvaluationTests.evaluation().report()
        #expect(!plain.checks.contains { $0.name == "modes" } && plain.modes.value == nil)
    }

    @Test("--max-modes without --all-formats is a usage error")
    func maxModesAlone() throws {
        #expect(throws: UsageError.self) {
            try CheckOptions(ArgumentParser.parse(["--max-modes", "4"], spec: CheckCommand.spec))
        }
        let options = try CheckOptions(
            ArgumentParser.parse(["--all-formats", "--max-modes", "4"], spec: CheckCommand.spec))
        #expect(options.allFormats && options.maxModes == 4)
        #expect(try CheckOptions(ArgumentParser.parse([], spec: CheckCommand.spec)).maxModes == 32)
    }
}
