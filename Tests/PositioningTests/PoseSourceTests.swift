import Foundation
import TestSupport
import Testing

@testable import Positioning

@Suite("Recorded sources and pose sources built on location sources")
struct PoseSourceTests {
    @Test("frame-driven replay plays exactly the samples up to each frame's time, then ends")
    func frameDriven() throws {
        let track = try NMEALog.load(PackagePaths.sample("nmea/skytraq-PX1172RH_DS.log"))
        let source = RecordedLocationSource(track: track, pace: .frameDriven)
        let (recorder, end) = LocationEventRecorder.started(source)
        defer { end() }
        #expect(recorder.fixes.isEmpty)
        let start = try #require(track.timeSpan?.lowerBound)
        #expect(source.advance(to: start.addingTimeInterval(2.5)))
        #expect(recorder.fixes.count == 3)
        #expect(recorder.orientations.count == 3)
        #expect(!source.advance(to: start.addingTimeInterval(100)))
        #expect(recorder.fixes.count == 9)
        #expect(recorder.statuses.last == .ended)
    }

    @Test("real-time replay at 8× speed plays a 1-second-per-fix log in about an eighth of the time")
    func realTime() throws {
        let track = try NMEALog.load(PackagePaths.sample("nmea/skytraq-PX1172RH_DS.log"))
        let (recorder, end) = LocationEventRecorder.started(
            RecordedLocationSource(track: track, pace: .realTime(speed: 8)))
        defer { end() }
        // The first fix plays at once, the rest within 8 s / 8 = 1 s (allow a slow machine 10 s).
        #expect(recorder.wait(seconds: 10) { $0.statuses.last == .ended })
        #expect(recorder.fixes.map(\.time) == track.fixes.map(\.time))
    }

    @Test("course and receiver headings follow a location source; a fixed pose publishes itself")
    func derivedSources() throws {
        let boat = try NMEALog.load(PackagePaths.sample("nmea/bundg_zeus_9.log"))
        let location = RecordedLocationSource(track: boat, pace: .frameDriven)
        let course = CourseHeadingPoseSource(location: location)
        let receiver = ReceiverHeadingPoseSource(location: location)
        let courseRecorder = LocationEventRecorder()
        let receiverRecorder = LocationEventRecorder()
        let observations = [course.addObserver(courseRecorder.handler), receiver.addObserver(receiverRecorder.handler)]
        defer {
            for observation in observations { observation.cancel() }
        }
        course.start()
        receiver.start()
        location.start()
        location.advance(to: .distantFuture)
        // Live, the first fix has no course (its epoch has no RMC) and no earlier fix to take a
        // bearing from, so headings start with the second.
        #expect(courseRecorder.orientations.count == boat.fixes.count - 1)
        #expect(courseRecorder.orientations.allSatisfy { $0.origin == .course && (222.3...247.9).contains($0.heading) })
        #expect(receiverRecorder.orientations.count == boat.orientations.count)
        #expect(receiverRecorder.orientations.allSatisfy { $0.origin == .compass })
        course.stop()
        receiver.stop()

        let (fixedRecorder, endFixed) = LocationEventRecorder.started(FixedPoseSource(heading: 90, pitch: -5))
        endFixed()
        #expect(fixedRecorder.orientations.map(\.heading) == [90])
        #expect(fixedRecorder.orientations.first?.pitch == -5)
    }

    @Test("a sidecar file plays as a pose source")
    func sidecarReplay() throws {
        let sidecar = try SidecarFile(
            data: Data("time,heading\n2024-05-01T10:00:00Z,1\n2024-05-01T10:00:01Z,2\n".utf8), file: "p.csv")
        let (recorder, end) = LocationEventRecorder.started(
            RecordedLocationSource(track: sidecar.recordedTrack, pace: .immediate) as any PoseSource)
        end()
        #expect(recorder.orientations.map(\.heading) == [1, 2])
        #expect(recorder.statuses.last == .ended)
    }
}
