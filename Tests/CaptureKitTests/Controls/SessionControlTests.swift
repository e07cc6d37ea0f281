@_spi(Testing) import ScriptedCamera
import TestSupport
import Testing

@_spi(Testing) @testable import CaptureKit
@testable import Positioning

/// Controls through a session: set at start, changed while running without a restart, and kept
/// (clamped) across a camera switch.
@Suite("Controls through a session", .timeLimit(.minutes(10)))
struct SessionControlTests {
    static func script(zoomMaximum: Int64) -> ScriptedVideoDevice.Script {
        var script = ScriptedVideoDevice.Script()
        script.controls = [
            ControlSettingTests.brightness,
            DeviceControl(
                id: 0x009a_090d, name: "Zoom, Absolute", type: .integer, minimum: 100, maximum: zoomMaximum, step: 1,
                defaultValue: 100, value: 100, flags: []),
        ]
        return script
    }

    @Test("controls in the configuration are set when the stream starts, and reported")
    func atStart() async throws {
        let running = try await RunningSession.start(Self.script(zoomMaximum: 500)) { session in
            session.configuration.controls = [
                ControlSetting(parsing: "brightness=60%"), ControlSetting(parsing: "zoom_absolute=900"),
            ].compactMap { $0 }
        }
        await running.session.stop()
        #expect(running.device.controlValue(0x0098_0900) == 153)
        #expect(running.device.controlValue(0x009a_090d) == 500)
        guard case .running(let negotiated) = running.recorder.events.phases.first(where: \.isRunning) else {
            Issue.record("never running: \(running.recorder.events.phases)")
            return
        }
        #expect(
            negotiated.controls.map(\.description) == [
                "brightness=153 (brightness=60%)", "zoom_absolute=500 (clamped from zoom_absolute=900)",
            ])
        let calls = running.device.calls
        let setAt = try #require(calls.firstIndex { $0.hasPrefix("VIDIOC_S_EXT_CTRLS") })
        let streamOnAt = try #require(calls.firstIndex(of: "VIDIOC_STREAMON"))
        #expect(setAt < streamOnAt, "controls are set before streaming starts")
    }

    @Test("a bad control fails the start with the control's range")
    func badControl() async throws {
        let factory = ScriptedDeviceFactory(script: Self.script(zoomMaximum: 500))
        let session = factory.makeSession()
        session.configuration.controls = [ControlSetting(parsing: "brightness=999")].compactMap { $0 }
        let recorder = SessionRecorder(session)
        session.locationSource = NoPositionSource()
        session.startRunning()
        let events = try await recorder.waitForPhase { $0.failure != nil }
        #expect(events.phases.last?.failure?.reason == "'/dev/video-scripted': brightness must be 0 to 255, not 999")
        #expect(factory.latest?.isClosed == true)
    }

    @Test("changing only controls, by commit or applyControls, keeps the stream running")
    func whileRunning() async throws {
        let running = try await RunningSession.start(Self.script(zoomMaximum: 500))
        running.session.beginConfiguration()
        running.session.configuration.controls = [ControlSetting(parsing: "brightness=10")].compactMap { $0 }
        running.session.commitConfiguration()
        let applied = try await running.session.applyControls(
            [ControlSetting(parsing: "zoom_absolute=250")].compactMap { $0 })
        #expect(applied.map(\.description) == ["zoom_absolute=250"])
        #expect(running.device.controlValue(0x0098_0900) == 10)
        #expect(running.device.controlValue(0x009a_090d) == 250)
        #expect(running.factory.devices.count == 1, "no restart")
        #expect(running.session.configuration.controls.map(\.description) == ["brightness=10", "zoom_absolute=250"])
        await #expect(
            throws: CaptureError.controlFailed(
                path: "/dev/video-scripted", .outOfRange(control: "brightness", value: -4, range: "0 to 255"))
        ) {
            try await running.session.applyControls([ControlSetting(parsing: "brightness=-4")].compactMap { $0 })
        }
        await running.session.stop()
    }

    @Test("switching cameras inside a configuration keeps the zoom, clamped to the new camera")
    func cameraSwitch() async throws {
        let running = try await RunningSession.start(Self.script(zoomMaximum: 500)) { session in
            session.configuration.controls = [ControlSetting(parsing: "zoom_absolute=400")].compactMap { $0 }
        }
        #expect(running.device.controlValue(0x009a_090d) == 400)
        running.factory.updateScript { $0 = Self.script(zoomMaximum: 300) }
        running.session.beginConfiguration()
        running.session.configuration.devicePath = "/dev/video-second"
        running.session.commitConfiguration()
        let events = try await running.recorder.wait { $0.phases.filter(\.isRunning).count == 2 }
        await running.session.stop()
        let second = try #require(running.factory.latest)
        #expect(second.path == "/dev/video-second")
        #expect(running.device.isClosed)
        #expect(second.controlValue(0x009a_090d) == 300)
        guard case .running(let negotiated) = events.phases.last(where: \.isRunning) else { return }
        #expect(negotiated.controls.first?.clamped == true)
        #expect(running.session.configuration.devicePath == "/dev/video-second")
    }
}
