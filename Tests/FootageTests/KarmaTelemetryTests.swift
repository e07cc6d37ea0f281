import Foundation
import TestSupport
import Testing

@testable import Footage
@testable import Positioning

/// A GoPro Karma drone's flight streams, which a HERO5 on a Karma records instead of GPS5, read
/// from a real MP4 container: the GoPro MAX clip with its telemetry packets written over by
/// ``KarmaTelemetryVideo`` (the test's own item writer, in the layouts the Karma sample clip
/// states). Each check compares with the values written.
@Suite("A GoPro Karma drone's telemetry (GLPI, GPRI, ATTD, SYST)")
struct KarmaTelemetryTests {
    @Test("the fused positions become fixes at their own times by SYST, above sea level, rated by GPRI")
    func fixes() async throws {
        let directory = try PackagePaths.temporaryDirectory("karma")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = try await KarmaTelemetryVideo(from: EmbeddedTelemetryTests.clip, in: directory)
        let reading = try EmbeddedTelemetry.read(video.path.path)
        let written = video.packets.flatMap(\.samples)
        let fixes = reading.track.fixes
        #expect(fixes.count == written.count)
        #expect(written.count == 11 * KarmaTelemetryVideo.samplesPerPacket, "every packet of the clip written")
        for (fix, sample) in zip(fixes, written) {
            let time = KarmaTelemetryVideo.clockOffset + sample.bootTime
            #expect(abs(fix.time.timeIntervalSince1970 - time) < 0.000_5, "UTC = boot time + SYST's offset")
            #expect(abs(fix.coordinate.latitude - sample.latitude) < 1e-7)
            #expect(abs(fix.coordinate.longitude - sample.longitude) < 1e-7)
            #expect(fix.coordinate.altitude == nil, "not above the ellipsoid")
            #expect(abs((fix.altitudeMeanSeaLevel ?? -1) - sample.altitude) < 0.000_5)
            #expect(fix.mode == .threeD)
            let accuracy = Double(KarmaTelemetryVideo.eph) / 100 * GPMFTrackBuilder.rangeError
            #expect(abs((fix.horizontalAccuracy ?? 0) - accuracy) < 1e-9)
            // Velocity 3.00 m/s north, 1.50 m/s west.
            #expect(abs((fix.speed ?? 0) - (3.0 * 3.0 + 1.5 * 1.5).squareRoot()) < 1e-9)
            #expect(abs((fix.course ?? 0) - (360 - atan2(1.5, 3.0) * 180 / .pi)) < 1e-6)
        }
        // Each packet's first sample is 100 s after boot plus the packet's time: the video starts at
        // boot time 100.
        let start = try #require(reading.videoStart).timeIntervalSince1970
        #expect(abs(start - (KarmaTelemetryVideo.clockOffset + 100)) < 0.001)
        #expect(reading.track.summary.hasPrefix("\(written.count) fixes from 11 GPMF payloads (GLPI at 4.0 Hz"))
        #expect(reading.track.warnings.isEmpty, "\(reading.track.warnings)")
    }

    @Test("the airframe's yaw gives the headings, in degrees from north, without its pitch and roll")
    func headings() async throws {
        let directory = try PackagePaths.temporaryDirectory("karma")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = try await KarmaTelemetryVideo(from: EmbeddedTelemetryTests.clip, in: directory)
        let track = try EmbeddedTelemetry.read(video.path.path).track
        let written = video.packets.flatMap(\.samples)
        #expect(track.orientations.count == written.count)
        for (orientation, sample) in zip(track.orientations, written) {
            let heading = (sample.yaw * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
            #expect(abs(orientation.heading - heading) < 1e-4, "yaw −0.5 rad is 331.4°")
            #expect(orientation.pitch == nil && orientation.roll == nil, "the gimbal's, not recorded")
            #expect(orientation.origin == .flightController)
            let time = KarmaTelemetryVideo.clockOffset + sample.bootTime - 0.006
            #expect(abs(orientation.time.timeIntervalSince1970 - time) < 0.000_5)
        }
    }

    @Test(
        "without SYST, or with SYST before its clock was set (UTC 0), the positions cannot be timed: no fixes, and a warning says why",
        arguments: [false, true])
    func withoutSystemTime(unsetClock: Bool) async throws {
        let directory = try PackagePaths.temporaryDirectory("karma")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = try await KarmaTelemetryVideo(
            from: EmbeddedTelemetryTests.clip, in: directory, systemTime: unsetClock, unsetClock: unsetClock)
        let reading = try EmbeddedTelemetry.read(video.path.path)
        #expect(reading.track.fixes.isEmpty)
        #expect(reading.track.orientations.isEmpty)
        #expect(reading.videoStart == nil)
        #expect(
            reading.track.warnings.contains(
                "\(video.path.path): no system time (SYST) in its Karma telemetry: its positions cannot be timed"))
    }

    @Test("a damaged GLPI skips its payload with a warning naming its time; the other payloads are read")
    func damagedStream() async throws {
        let directory = try PackagePaths.temporaryDirectory("karma")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = try await KarmaTelemetryVideo(from: EmbeddedTelemetryTests.clip, in: directory, damaged: 3)
        let track = try EmbeddedTelemetry.read(video.path.path).track
        #expect(track.fixes.count == (video.packets.count - 1) * KarmaTelemetryVideo.samplesPerPacket)
        let warning = try #require(track.warnings.first)
        #expect(
            warning.hasPrefix(String(format: "\(video.path.path): telemetry at %.2f s: byte ", video.packets[3].time)))
        #expect(warning.contains("GLPI samples of 28 bytes do not match TYPE 'LllllsssL'"), "\(warning)")
        #expect(warning.hasSuffix("payload skipped"))
        #expect(track.summary.contains("1 damaged payloads skipped"))
    }

    @Test("one payload: GLPI rated by GPRI's fix, SYST's offset; it is not GPS5; an empty payload is nil")
    func payload() throws {
        let items = try GPMFItem.parse(
            KarmaTelemetryVideo.device(
                [.init(bootTime: 1, latitude: 10, longitude: 20, altitude: 30, yaw: 0)], systemTime: 0.5, damaged: false
            ))
        let karma = try #require(try GPMFKarmaPayload.decode(items))
        #expect(karma.positionKey == "GLPI" && karma.positions.count == 1)
        #expect(karma.positions.first?.fix == 3, "the receiver's fix from GPRI")
        #expect(karma.clockOffsets == [KarmaTelemetryVideo.clockOffset])
        #expect(try GPMFGPSPayload.decode(items) == nil, "no GPS5 or GPS9 in a Karma's payload")
        #expect(try GPMFKarmaPayload.decode(try GPMFItem.parse([])) == nil)
    }

    @Test("without GLPI the receiver's own fixes (GPRI) serve: their time, fix, dilution, speed and course")
    func receiverPositions() throws {
        let sample = KarmaTelemetryVideo.Sample(bootTime: 5, latitude: 33.1, longitude: -117.3, altitude: 15.5, yaw: 0)
        let items = try GPMFItem.parse(
            KarmaTelemetryVideo.device([sample], systemTime: 4.5, damaged: false, fused: false))
        let karma = try #require(try GPMFKarmaPayload.decode(items))
        #expect(karma.positionKey == "GPRI")
        let position = try #require(karma.positions.first)
        #expect(abs(position.bootTime - 4.9) < 1e-9, "GPRI's own time, in microseconds")
        #expect(abs(position.latitude - 33.1) < 1e-7 && abs(position.longitude + 117.3) < 1e-7)
        #expect(abs(position.altitudeMeanSeaLevel - 15.5) < 1e-9)
        #expect(position.fix == 3)
        #expect(position.dilution == Double(KarmaTelemetryVideo.eph) / 100)
        #expect(abs(position.speed - 3.35) < 1e-9 && abs((position.course ?? 0) - 333) < 1e-9)
        let gps = karma.gps(clockOffset: GPMFKarmaPayload.clockOffset([karma]))
        #expect(gps.key == "GPRI" && gps.altitudeIsMeanSeaLevel)
        let time = try #require(gps.samples.first?.time).timeIntervalSince1970
        #expect(abs(time - (KarmaTelemetryVideo.clockOffset + 4.9)) < 0.000_5)
    }
}
