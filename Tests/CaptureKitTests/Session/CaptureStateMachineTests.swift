import Testing

@testable import ArcaptureCore
@testable import CaptureKit

@Suite("Capture state machine")
struct CaptureStateMachineTests {
    typealias Action = CaptureStateMachine.Action

    static let negotiated = NegotiatedFormat(
        request: FormatRequest(),
        choice: FormatChoice(
            pixelFormat: .yuyv, size: FrameSize(width: 640, height: 480), frameInterval: nil, explanation: []),
        format: V4L2Format(pixelFormat: .yuyv, width: 640, height: 480), frameInterval: nil, bufferCount: 4,
        usesLibV4L2: false, adjustments: [])

    @Test("starting without a location source waits and opens nothing")
    func startWithoutLocation() {
        var machine = CaptureStateMachine()
        #expect(machine.startRunning() == [.publish(.waitingForLocationSource)])
        #expect(machine.phase == .waitingForLocationSource)
        #expect(!machine.isStreaming)
    }

    @Test("assigning a location source to a waiting session opens the stream")
    func assignStarts() {
        var machine = CaptureStateMachine()
        _ = machine.startRunning()
        #expect(machine.locationSourceAssigned(hasPosition: true) == [.publish(.starting), .openStream])
        #expect(machine.streamOpened(Self.negotiated) == [.publish(.running(Self.negotiated))])
        #expect(machine.isStreaming)
    }

    @Test("a source without a fix streams in waiting-for-location until its first fix")
    func waitsForFirstFix() {
        var machine = CaptureStateMachine()
        _ = machine.startRunning()
        #expect(machine.locationSourceAssigned(hasPosition: false) == [.publish(.starting), .openStream])
        #expect(machine.streamOpened(Self.negotiated) == [.publish(.waitingForLocation(Self.negotiated))])
        #expect(machine.isStreaming)
        #expect(machine.locationStatusChanged(hasPosition: true) == [.publish(.running(Self.negotiated))])
        // Losing the fix later changes no phase: frames carry the status one by one.
        #expect(machine.locationStatusChanged(hasPosition: false) == [])
        #expect(machine.phase == .running(Self.negotiated))
        // A replacement source without a fix does not stop the stream either.
        #expect(machine.locationSourceAssigned(hasPosition: false) == [])
        #expect(machine.isStreaming)
    }

    @Test("a location source assigned before starting streams on start")
    func assignThenStart() {
        var machine = CaptureStateMachine()
        #expect(machine.locationSourceAssigned(hasPosition: true) == [])
        #expect(machine.startRunning() == [.publish(.starting), .openStream])
    }

    @Test("removing the location source stops capture and waits again")
    func removeStops() {
        var machine = CaptureStateMachine()
        _ = machine.locationSourceAssigned(hasPosition: true)
        _ = machine.startRunning()
        _ = machine.streamOpened(Self.negotiated)
        #expect(machine.locationSourceRemoved() == [.closeStream, .publish(.waitingForLocationSource)])
        #expect(!machine.isStreaming)
        #expect(machine.locationSourceAssigned(hasPosition: true) == [.publish(.starting), .openStream])
    }

    @Test("start and stop are idempotent")
    func idempotent() {
        var machine = CaptureStateMachine()
        _ = machine.locationSourceAssigned(hasPosition: true)
        _ = machine.startRunning()
        #expect(machine.startRunning() == [])
        _ = machine.streamOpened(Self.negotiated)
        #expect(machine.stopRunning() == [.closeStream, .publish(.idle)])
        #expect(machine.stopRunning() == [])
        #expect(machine.phase == .idle)
    }

    @Test("a failure closes the stream and needs a new start")
    func failure() {
        var machine = CaptureStateMachine()
        _ = machine.locationSourceAssigned(hasPosition: true)
        _ = machine.startRunning()
        _ = machine.streamOpened(Self.negotiated)
        let error = CaptureError.disconnected(path: "/dev/video0")
        #expect(machine.streamFailed(error) == [.closeStream, .publish(.failed(error))])
        #expect(!machine.wantsRunning)
        #expect(machine.startRunning() == [.publish(.starting), .openStream])
    }

    @Test("a failed open publishes the failure without closing anything")
    func failedOpen() {
        var machine = CaptureStateMachine()
        _ = machine.locationSourceAssigned(hasPosition: true)
        _ = machine.startRunning()
        let error = CaptureError.deviceNotFound(path: "/dev/video9")
        #expect(machine.streamFailed(error) == [.publish(.failed(error))])
        #expect(machine.stopRunning() == [.publish(.idle)])
    }

    @Test("a configuration change restarts a running stream, and only a running one")
    func configurationChange() {
        var machine = CaptureStateMachine()
        #expect(machine.configurationChanged() == [])
        _ = machine.locationSourceAssigned(hasPosition: true)
        _ = machine.startRunning()
        _ = machine.streamOpened(Self.negotiated)
        #expect(machine.configurationChanged() == [.closeStream, .publish(.starting), .openStream])
    }

    @Test("a stream that opens after its reason went away is closed at once")
    func lateOpen() {
        var machine = CaptureStateMachine()
        _ = machine.locationSourceAssigned(hasPosition: true)
        _ = machine.startRunning()
        _ = machine.stopRunning()
        #expect(machine.streamOpened(Self.negotiated) == [.closeStream])
        #expect(!machine.isStreaming)
    }
}

@Suite("Capture state machine: interruptions")
struct CaptureStateMachineInterruptionTests {
    static let negotiated = CaptureStateMachineTests.negotiated

    func running(reconnects: Bool) -> CaptureStateMachine {
        var machine = CaptureStateMachine()
        machine.reconnects = reconnects
        _ = machine.locationSourceAssigned(hasPosition: true)
        _ = machine.startRunning()
        _ = machine.streamOpened(Self.negotiated)
        return machine
    }

    @Test("with reconnection, an unplug waits for the camera and resumes through starting")
    func reconnects() {
        var machine = running(reconnects: true)
        let error = CaptureError.disconnected(path: "/dev/video0")
        #expect(
            machine.streamFailed(error) == [.closeStream, .publish(.interrupted(error)), .waitForDevice(after: .zero)])
        #expect(machine.wantsRunning)
        #expect(machine.deviceReturned() == [.publish(.starting), .openStream])
        #expect(machine.deviceReturned() == [], "only once per interruption")
    }

    @Test("a camera still missing at reopening waits again")
    func stillMissing() {
        var machine = running(reconnects: true)
        _ = machine.streamFailed(.timeout(path: "/dev/video0", seconds: 5, framesReceived: 10))
        _ = machine.deviceReturned()
        let missing = CaptureError.deviceNotFound(path: "/dev/v4l/by-id/usb-cam")
        #expect(machine.streamFailed(missing) == [.publish(.interrupted(missing)), .waitForDevice(after: .zero)])
    }

    @Test(
        "a camera that came back but fails to start streaming is tried again, later each time; a first start that fails does fail"
    )
    func failedReopen() {
        var machine = running(reconnects: true)
        _ = machine.streamFailed(.disconnected(path: "/dev/video0"))
        let refused = CaptureError.streamingFailed(
            path: "/dev/video0", SystemCallError(call: "VIDIOC_STREAMON", errno: .invalidArgument))
        for delay in [500, 1000, 2000, 4000, 8000, 8000] {
            #expect(machine.deviceReturned() == [.publish(.starting), .openStream])
            #expect(
                machine.streamFailed(refused) == [
                    .publish(.interrupted(refused)), .waitForDevice(after: .milliseconds(delay)),
                ])
        }
        #expect(machine.deviceReturned() == [.publish(.starting), .openStream])
        #expect(machine.streamOpened(Self.negotiated) == [.publish(.running(Self.negotiated))])
        #expect(machine.failedReopens == 0)
        var fresh = CaptureStateMachine()
        fresh.reconnects = true
        _ = fresh.locationSourceAssigned(hasPosition: true)
        _ = fresh.startRunning()
        #expect(fresh.streamFailed(refused) == [.publish(.failed(refused))], "not a reopening: the error stands")
    }

    @Test("stopping while interrupted cancels the wait; other errors still fail")
    func stopAndOtherErrors() {
        var machine = running(reconnects: true)
        _ = machine.streamFailed(.disconnected(path: "/dev/video0"))
        #expect(machine.stopRunning() == [.cancelWait, .publish(.idle)])
        var other = running(reconnects: true)
        let busy = CaptureError.deviceBusy(path: "/dev/video0", holders: [], uninspectedProcesses: 0)
        #expect(other.streamFailed(busy) == [.closeStream, .publish(.failed(busy))])
    }

    @Test("without reconnection an unplug fails the session")
    func withoutReconnection() {
        var machine = running(reconnects: false)
        let error = CaptureError.disconnected(path: "/dev/video0")
        #expect(machine.streamFailed(error) == [.closeStream, .publish(.failed(error))])
    }
}
