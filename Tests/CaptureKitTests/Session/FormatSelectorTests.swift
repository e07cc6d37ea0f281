@_spi(Testing) import ScriptedCamera
import Testing

@testable import ArcaptureCore
@_spi(Testing) @testable import CaptureKit

@Suite("Format selection")
struct FormatSelectorTests {
    static let webcam = ScriptedVideoDevice.webcamFormats
    static let size480 = FrameSize(width: 640, height: 480)
    static let size720 = FrameSize(width: 1280, height: 720)

    func choose(
        _ request: FormatRequest, _ formats: [SupportedFormat] = webcam, current: FrameSize? = size480,
        libv4l2: Bool = false
    ) -> Result<FormatChoice, FormatSelector.Failure> {
        FormatSelector.choose(request, from: formats, currentSize: current, throughLibV4L2: libv4l2)
    }

    @Test("at 640x480 both formats reach 30 fps, and uncompressed YUYV wins")
    func yuyvAtVGA() throws {
        let choice = try choose(FormatRequest(size: Self.size480, framesPerSecond: 30)).get()
        #expect(choice.pixelFormat == .yuyv)
        #expect(choice.size == Self.size480)
        #expect(choice.frameInterval?.framesPerSecond == 30)
        #expect(choice.explanation.contains { $0.contains("preferred over MJPG") })
    }

    @Test("at 1280x720 only MJPEG reaches 30 fps, with or without a requested rate")
    func mjpegAtHD() throws {
        for rate in [30.0, nil] {
            let choice = try choose(FormatRequest(size: Self.size720, framesPerSecond: rate)).get()
            #expect(choice.pixelFormat == .mjpeg)
            #expect(choice.frameInterval?.framesPerSecond == 30)
            #expect(choice.explanation.contains { $0.contains("the only format that meets") })
        }
    }

    @Test("a rate no format reaches picks the closest offered and says so")
    func closestRate() throws {
        let choice = try choose(FormatRequest(pixelFormat: .yuyv, size: Self.size720, framesPerSecond: 25)).get()
        #expect(choice.frameInterval?.framesPerSecond == 10)
        #expect(choice.explanation.contains { $0.contains("closest offered") && $0.contains("25 fps requested") })
    }

    @Test("an unoffered size gets the smallest size that covers it")
    func nearestSize() throws {
        let choice = try choose(FormatRequest(size: FrameSize(width: 800, height: 600))).get()
        #expect(choice.size == Self.size720)
        #expect(choice.explanation.contains { $0.contains("nearest offered to the requested 800x600") })
    }

    @Test("a size larger than any offered gets the largest")
    func largestBelow() throws {
        let choice = try choose(FormatRequest(size: FrameSize(width: 4000, height: 3000))).get()
        #expect(choice.size == Self.size720)
    }

    @Test("without a size, the driver's current size is kept")
    func currentSize() throws {
        let choice = try choose(FormatRequest(), current: Self.size720).get()
        #expect(choice.size == Self.size720)
        #expect(choice.explanation.contains { $0.contains("the driver's current size") })
    }

    @Test("a requested format that is missing fails with the list, or asks for libv4l2 when allowed")
    func missingFormat() {
        #expect(choose(FormatRequest(pixelFormat: .rgb24)) == .failure(.needsConversion(available: [.yuyv, .mjpeg])))
        #expect(
            choose(FormatRequest(pixelFormat: .rgb24, conversion: .native))
                == .failure(.unsupported(requested: .rgb24, available: [.yuyv, .mjpeg])))
        #expect(
            choose(FormatRequest(pixelFormat: .rgb24), libv4l2: true)
                == .failure(.unsupported(requested: .rgb24, available: [.yuyv, .mjpeg])))
    }

    @Test("a sensor with only Bayer formats needs libv4l2 under auto, and is refused under native")
    func bayerOnly() {
        let bayer = [
            SupportedFormat(
                pixelFormat: PixelFormatDescription(fourCC: "BA81", description: "8-bit Bayer BGBG/GRGR"),
                frameSizes: [
                    SupportedFrameSize(
                        sizes: .discrete(Self.size480), frameIntervals: .discrete(ScriptedVideoDevice.rates([30])))
                ])
        ]
        #expect(choose(FormatRequest(), bayer) == .failure(.needsConversion(available: ["BA81"])))
        #expect(
            choose(FormatRequest(conversion: .native), bayer)
                == .failure(.unsupported(requested: "auto", available: ["BA81"])))
    }

    @Test("stepwise sizes snap to the grid and continuous rates clamp")
    func stepwise() throws {
        let formats = [
            SupportedFormat(
                pixelFormat: PixelFormatDescription(fourCC: .nv12, description: "Y/UV 4:2:0"),
                frameSizes: [
                    SupportedFrameSize(
                        sizes: .stepwise(
                            minimum: FrameSize(width: 32, height: 32), maximum: FrameSize(width: 4056, height: 3040),
                            step: FrameSize(width: 16, height: 2)),
                        frameIntervals: .continuous(
                            minimum: FrameInterval(numerator: 1, denominator: 40),
                            maximum: FrameInterval(numerator: 1, denominator: 1)))
                ])
        ]
        let exact = try choose(FormatRequest(size: FrameSize(width: 1280, height: 720), framesPerSecond: 60), formats)
            .get()
        #expect(exact.size == FrameSize(width: 1280, height: 720))
        #expect(exact.frameInterval?.framesPerSecond == 40)
        let snapped = try choose(FormatRequest(size: FrameSize(width: 1000, height: 701)), formats).get()
        #expect(snapped.size == FrameSize(width: 1008, height: 702))
        #expect(snapped.frameInterval?.framesPerSecond == 30)
    }

    @Test("a driver that lists no sizes gets the request as is")
    func noSizeList() throws {
        let formats = [
            SupportedFormat(pixelFormat: PixelFormatDescription(fourCC: .yuyv, description: "YUYV"), frameSizes: [])
        ]
        let choice = try choose(FormatRequest(size: FrameSize(width: 720, height: 576), framesPerSecond: 25), formats)
            .get()
        #expect(choice.size == FrameSize(width: 720, height: 576))
        #expect(choice.frameInterval == FrameInterval(numerator: 1, denominator: 25))
        #expect(choice.explanation.contains { $0.contains("does not list sizes") })
    }

    @Test("formats CaptureKit does not handle are used only when named")
    func nonNativeOnlyWhenNamed() throws {
        var formats = Self.webcam
        formats.insert(
            SupportedFormat(
                pixelFormat: PixelFormatDescription(fourCC: .rgb24, description: "RGB3"),
                frameSizes: [
                    SupportedFrameSize(
                        sizes: .discrete(Self.size480), frameIntervals: .discrete(ScriptedVideoDevice.rates([60])))
                ]),
            at: 0)
        #expect(try choose(FormatRequest(size: Self.size480), formats).get().pixelFormat == .yuyv)
        #expect(try choose(FormatRequest(pixelFormat: .rgb24), formats).get().pixelFormat == .rgb24)
    }
}
