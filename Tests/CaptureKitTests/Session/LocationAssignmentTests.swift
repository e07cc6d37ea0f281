import Foundation
@_spi(Testing) import ScriptedCamera
import TestSupport
import Testing

@_spi(Testing) @testable import CaptureKit
@testable import Positioning

/// The geo-AR rule with a real location source: capture starts when the source is assigned; until
/// its first fix frames flow, marked "no position", and the phase says "waiting for location".
@Suite("Location source assignment")
struct LocationAssignmentTests {
    @Test("waiting for location until the first fix; frames before it have no position")
    func waitingForLocation() async throws {
        let factory = ScriptedDeviceFactory(script: .init())
        let session = factory.makeSession()
        let recorder = SessionRecorder(session)
        let track = try NMEALog.load(PackagePaths.sample("nmea/skytraq-PX1172RH_DS.log"))
        let location = RecordedLocationSource(track: track, pace: .frameDriven)
        session.startRunning()
        try await recorder.waitForPhase { $0 == .waitingForLocationSource }
        #expect(factory.latest == nil, "no camera is opened before a location source is assigned")

        session.locationSource = location
        try await recorder.waitForPhase { if case .waitingForLocation = $0 { true } else { false } }
        let device = try #require(factory.latest)
        #expect(device.emit(Fixtures.yuyvFrame(seed: 1), sequence: 1))
        let before = try await recorder.wait { $0.frames.count == 1 }
        #expect(before.frames[0].locationStatus == .noFix)
        #expect(!before.frames[0].hasPosition)

        // The first fix arrives: the phase moves on, and frames have a position.
        location.advance(to: try #require(track.timeSpan?.lowerBound))
        try await recorder.waitForPhase(\.isRunning)
        #expect(device.emit(Fixtures.yuyvFrame(seed: 2), sequence: 2))
        let after = try await recorder.wait { $0.frames.count == 2 }
        #expect(after.frames[1].locationStatus == .fix(.threeD))
        #expect(after.frames[1].hasPosition)
        await session.stop()
        let phases = recorder.events.phases.map(\.description)
        #expect(phases == ["waiting-for-location-source", "starting", "waiting-for-location", "running", "idle"])
    }

    @Test("replacing the source stops the old one; a fixed source streams straight to running")
    func replacing() async throws {
        let factory = ScriptedDeviceFactory(script: .init())
        let session = factory.makeSession()
        let recorder = SessionRecorder(session)
        let track = try NMEALog.load(PackagePaths.sample("nmea/skytraq-PX1172RH_DS.log"))
        let replay = RecordedLocationSource(track: track, pace: .realTime(speed: 1))
        let coordinate = try #require(GeodeticCoordinate(latitude: 60.17, longitude: 24.94, altitude: 30))
        session.locationSource = FixedLocationSource(coordinate)
        session.startRunning()
        try await recorder.waitForPhase(\.isRunning)
        #expect(!recorder.events.phases.contains { if case .waitingForLocation = $0 { true } else { false } })
        let played = LocationEventRecorder()
        let observation = replay.addObserver(played.handler)
        defer { observation.cancel() }
        session.locationSource = replay
        #expect(played.wait(seconds: 30) { !$0.fixes.isEmpty }, "assigning the source started it")
        #expect(replay.isPlaying)
        session.locationSource = NoPositionSource()
        // Replaced, the replay was stopped: its thread ended, after which it publishes nothing.
        // (It has an hour of fixes left at one a second; only a stop ends it.)
        #expect(await OffPool.wait { !replay.isPlaying }, "the replaced source was stopped")
        let count = played.fixes.count
        #expect(replay.latestFix == played.fixes.last, "nothing played after its last fix seen here")
        #expect(played.fixes.count == count)
        await session.stop()
    }
}
