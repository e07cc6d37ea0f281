import Foundation
@_spi(Testing) import ScriptedCamera
import Testing

@testable import ArcaptureCore
@_spi(Testing) @testable import CaptureKit

/// The authorization probe over scripted devices. /dev/null stands in for the node: it is a real
/// character device every machine has, so the probe's `stat` checks run for real while the V4L2
/// answers come from the script.
@Suite("Authorization probe")
struct AccessProbeTests {
    func probe(_ script: ScriptedVideoDevice.Script = .init(), openFailure: Errno? = nil) -> AccessProbe {
        let factory = ScriptedDeviceFactory(script: script, openFailure: openFailure)
        return AccessProbe(open: { path throws(SystemCallError) in try factory.open(path, false) })
    }

    @Test("a streaming single-planar capture node whose queue is free is authorized")
    func authorized() {
        let result = probe().examine("/dev/null")
        #expect(result.status == .authorized)
        #expect(result.problem == nil)
        #expect(result.message == "'/dev/null' can be opened for capture")
    }

    @Test("an absent node is not determined yet")
    func absent() {
        let result = probe().examine("/dev/arcapture-no-such-node")
        #expect(result.status == .notDetermined)
        #expect(result.problem == .deviceNotFound(path: "/dev/arcapture-no-such-node"))
    }

    @Test("a regular file is restricted: not a device")
    func regularFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("arcapture-probe-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = probe().examine(file.path)
        #expect(result.status == .restricted)
        #expect(result.problem == .notAVideoDevice(path: file.path, detail: "it is not a character device"))
    }

    @Test("EACCES and EPERM are denied, with a diagnosis of the node")
    func denied() throws {
        for errno in [Errno.permissionDenied, .notPermitted] {
            let result = probe(openFailure: errno).examine("/dev/null")
            #expect(result.status == .denied)
            guard case .permissionDenied(let diagnosis) = result.problem else {
                Issue.record("expected a permission diagnosis, got \(String(describing: result.problem))")
                continue
            }
            #expect(diagnosis.path == "/dev/null")
            #expect(diagnosis.errno == errno)
            #expect(diagnosis.nodeDescription == "crw-rw-rw- root:root")
        }
    }

    @Test("a node whose device is gone is not determined yet")
    func gone() {
        #expect(
            probe(openFailure: .noSuchDevice).examine("/dev/null").problem
                == .deviceGone(path: "/dev/null", errno: .noSuchDevice))
        #expect(probe(openFailure: .noSuchDevice).examine("/dev/null").status == .notDetermined)
    }

    @Test("restricted nodes say why", arguments: [0, 1, 2, 3, 4])
    func restricted(kind: Int) {
        var script = ScriptedVideoDevice.Script()
        let expected: CaptureError
        switch kind {
        case 0:
            script.capability.deviceCapabilities = [.metadataCapture, .streaming]  // a UVC metadata node
            expected = .notACaptureDevice(path: "/dev/null", capabilities: ["meta-capture", "streaming"])
        case 1:
            script.capability.deviceCapabilities = [.videoCaptureMultiplanar, .streaming]
            expected = .multiplanarUnsupported(path: "/dev/null")
        case 2:
            script.capability.deviceCapabilities = [.videoCapture, .readWrite]
            expected = .streamingUnsupported(path: "/dev/null")
        case 3:
            script.failures["VIDIOC_QUERYCAP"] = .notSupported
            expected = .notAVideoDevice(path: "/dev/null", detail: "it does not answer VIDIOC_QUERYCAP (ENOTTY)")
        default:
            script.failures["VIDIOC_REQBUFS 0"] = .busy
            let result = probe(script).examine("/dev/null")
            #expect(result.status == .restricted)
            guard case .deviceBusy(let path, let holders, _) = result.problem else {
                Issue.record("expected busy, got \(String(describing: result.problem))")
                return
            }
            #expect(path == "/dev/null")
            #expect(!holders.contains { $0.isCurrentProcess }, "the probe's own descriptor is not a holder")
            return
        }
        let result = probe(script).examine("/dev/null")
        #expect(result.status == .restricted)
        #expect(result.problem == expected)
    }

    @Test("the holders of a node are found through /proc, by device number")
    func holders() throws {
        let handle = try #require(FileHandle(forReadingAtPath: "/dev/zero"))
        defer { try? handle.close() }
        let found = ProcessHolder.holders(ofDeviceAt: "/dev/zero")
        let me = try #require(found.holders.first { $0.isCurrentProcess })
        #expect(me.pid == ProcessInfo.processInfo.processIdentifier)
        #expect(!me.command.isEmpty)
    }
}
