import Foundation
@_spi(Testing) import ScriptedCamera
import Testing

@testable import ArcaptureCore
@_spi(Testing) @testable import CaptureKit
@testable import Positioning

@Suite("Device model values")
struct DeviceModelTests {
    @Test("FourCC packs like v4l2_fourcc and prints like v4l2-ctl")
    func fourCC() throws {
        // Through a variable: `FourCC("…")` with a literal is the literal initialiser, not the parser.
        func parse(_ text: String) -> FourCC? { FourCC(text) }
        #expect(FourCC.yuyv.rawValue == 0x5659_5559)
        #expect(FourCC.mjpeg.description == "MJPG")
        #expect(parse("Y10")?.rawValue == 0x2030_3159)
        #expect(parse("Y10")?.description == "Y10")
        #expect(FourCC(rawValue: (parse("Y16")?.rawValue ?? 0) | 0x8000_0000).description == "Y16-BE")
        #expect(parse("") == nil)
        #expect(parse("TOOLONG") == nil)
        #expect(parse("é") == nil)
    }

    @Test("frame intervals convert rates exactly and print them plainly")
    func intervals() throws {
        #expect(FrameInterval(framesPerSecond: 12.5) == FrameInterval(numerator: 2, denominator: 25))
        #expect(FrameInterval(framesPerSecond: 30) == FrameInterval(numerator: 1, denominator: 30))
        #expect(FrameInterval(numerator: 1001, denominator: 30000).description == "29.97 fps")
        #expect(FrameInterval(numerator: 2, denominator: 25).description == "12.5 fps")
        #expect(FrameInterval(framesPerSecond: 0) == nil)
        #expect(FrameInterval(framesPerSecond: .nan) == nil)
        #expect(FrameInterval(numerator: 0, denominator: 30).framesPerSecond == 0)
    }

    @Test("frame sizes parse from WxH")
    func sizes() {
        #expect(FrameSize(parsing: "1280x720") == FrameSize(width: 1280, height: 720))
        #expect(FrameSize(parsing: "1280X720") == FrameSize(width: 1280, height: 720))
        #expect(FrameSize(parsing: "0x720") == nil)
        #expect(FrameSize(parsing: "1280") == nil)
        #expect(FrameSize(parsing: "axb") == nil)
    }

    @Test("size ranges answer containment and rounding like drivers")
    func sizeRanges() {
        let stepwise = FrameSizeRange.stepwise(
            minimum: FrameSize(width: 16, height: 16), maximum: FrameSize(width: 1920, height: 1080),
            step: FrameSize(width: 16, height: 8))
        #expect(stepwise.contains(FrameSize(width: 1280, height: 720)))
        #expect(!stepwise.contains(FrameSize(width: 1281, height: 720)))
        #expect(stepwise.nearest(to: FrameSize(width: 1283, height: 721)) == FrameSize(width: 1280, height: 720))
        #expect(stepwise.nearest(to: FrameSize(width: 5000, height: 5000)) == FrameSize(width: 1920, height: 1080))
        let continuous = FrameSizeRange.continuous(
            minimum: FrameSize(width: 1, height: 1), maximum: FrameSize(width: 800, height: 600))
        #expect(continuous.contains(FrameSize(width: 333, height: 77)))
        #expect(continuous.nearest(to: FrameSize(width: 1000, height: 10)) == FrameSize(width: 800, height: 10))
        #expect(continuous.largest == FrameSize(width: 800, height: 600))
    }

    @Test("control identifiers are v4l2-ctl's names")
    func controlIdentifiers() {
        func identifier(_ name: String) -> String {
            DeviceControl(
                id: 1, name: name, type: .integer, minimum: 0, maximum: 1, step: 1, defaultValue: 0, value: nil,
                flags: []
            ).identifier
        }
        #expect(identifier("Zoom, Absolute") == "zoom_absolute")
        #expect(identifier("White Balance Temperature, Auto") == "white_balance_temperature_auto")
        #expect(identifier("Integer 32 Bits") == "integer_32_bits")
        #expect(identifier("Limited RGB Range (16-235)") == "limited_rgb_range_16_235")
    }

    @Test("coordinates parse from the command line and refuse nonsense")
    func coordinates() {
        #expect(
            GeodeticCoordinate(parsing: "60.1699, 24.9384") == GeodeticCoordinate(latitude: 60.1699, longitude: 24.9384)
        )
        #expect(GeodeticCoordinate(parsing: "60.1699,24.9384,12.5")?.altitude == 12.5)
        #expect(GeodeticCoordinate(parsing: "91,0") == nil)
        #expect(GeodeticCoordinate(parsing: "0,181") == nil)
        #expect(GeodeticCoordinate(parsing: "60.1") == nil)
        #expect(GeodeticCoordinate(parsing: "a,b") == nil)
    }
}

@Suite("Device inspection over a scripted device")
struct DeviceInspectorTests {
    @Test("inspect reads capability, formats with sizes and intervals, controls and the current format")
    func inspect() {
        var script = ScriptedVideoDevice.Script()
        script.controls = [
            DeviceControl(
                id: 0x009a_090d, name: "Zoom, Absolute", type: .integer, minimum: 100, maximum: 500, step: 1,
                defaultValue: 100, value: 150, flags: [])
        ]
        let factory = ScriptedDeviceFactory(script: script)
        let probe = AccessProbe(open: { path throws(SystemCallError) in try factory.open(path, false) })
        let device = CaptureDevice.inspect("/dev/null", deviceDirectory: "/nonexistent", probe: probe)
        #expect(device.authorization.status == .authorized)
        #expect(device.isCaptureNode)
        #expect(!device.isMultiplanar)
        #expect(device.capability?.card == "Scripted Camera")
        #expect(device.formats.map(\.fourCC) == [.yuyv, .mjpeg])
        #expect(device.formats[0].frameSizes[1].frameIntervals == .discrete(ScriptedVideoDevice.rates([10, 5])))
        #expect(device.controls.first?.identifier == "zoom_absolute")
        #expect(device.currentFormat?.pixelFormat == .yuyv)
        #expect(device.currentFrameInterval == FrameInterval(numerator: 1, denominator: 30))
        #expect(factory.devices.allSatisfy { $0.isClosed }, "inspection closes what it opens")
    }

    @Test("a denied node is listed with its authorization and nothing else")
    func deniedNode() {
        let factory = ScriptedDeviceFactory(openFailure: .permissionDenied)
        let probe = AccessProbe(open: { path throws(SystemCallError) in try factory.open(path, false) })
        let device = CaptureDevice.inspect("/dev/null", deviceDirectory: "/nonexistent", probe: probe)
        #expect(device.authorization.status == .denied)
        #expect(device.capability == nil)
        #expect(device.formats.isEmpty)
    }

    @Test("stable paths are the udev links that resolve to the node")
    func stablePaths() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("arcapture-v4l-\(UUID().uuidString)")
        let byID = root.appendingPathComponent("by-id")
        let byPath = root.appendingPathComponent("by-path")
        try FileManager.default.createDirectory(at: byID, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: byPath, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(
            atPath: byID.appendingPathComponent("usb-cam-video-index0").path, withDestinationPath: "/dev/null")
        try FileManager.default.createSymbolicLink(
            atPath: byPath.appendingPathComponent("pci-0000:00:14.0-usb-0:1:1.0-video-index0").path,
            withDestinationPath: "/dev/null")
        try FileManager.default.createSymbolicLink(
            atPath: byID.appendingPathComponent("usb-other-video-index0").path, withDestinationPath: "/dev/zero")
        #expect(
            CaptureDevice.stablePaths(of: "/dev/null", in: root.path) == [
                byID.appendingPathComponent("usb-cam-video-index0").path,
                byPath.appendingPathComponent("pci-0000:00:14.0-usb-0:1:1.0-video-index0").path,
            ])
    }

    @Test("discovery in a directory without video nodes finds nothing")
    func emptyDiscovery() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("arcapture-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(CaptureDevice.discover(deviceDirectory: root.path).isEmpty)
    }
}
