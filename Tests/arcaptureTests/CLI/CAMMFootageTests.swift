import Foundation
import TestSupport
import Testing

/// A video with a CAMM track annotated from it with no `--track` (issue 40, item 5), as a user
/// runs the built binary: the GoPro clip's telemetry rewritten as CAMM (`CAMMTelemetryVideo`).
@Suite("arcapture annotate: a video's CAMM track")
struct CAMMFootageTests {
    @Test("annotate a CAMM video: its own GPS on its GPS clock, every frame posed along the records")
    func annotate() async throws {
        let directory = try PackagePaths.temporaryDirectory("camm")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = try await CAMMTelemetryVideo(from: PackagePaths.sample("video/max-heromode.mp4"), in: directory)
        let annotation = try await CourseAnnotation(video.path.path, in: directory)
        let result = annotation.result
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "note: poses from \(video.path.path)'s own GPS (CAMM): 55 fixes from 11 CAMM samples (type 6, times on "
                    + "the GPS clock, 18 leap seconds taken off)"), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "time: the first frame at 2019-11-18T23:45:15.000Z from the video's GPS clock (its CAMM track)"),
            "\(result.stderr)")
        #expect(result.stderr.contains("315 frames in, 315 out (315 annotated"))
        #expect(annotation.records.count == 315)
        // Frame 0 is where the first record is; heading south-south-east, the velocity's direction.
        let pose = try annotation.firstPose()
        #expect(
            abs((pose["lat"] as? Double ?? 0) - 33.12677) < 1e-6
                && abs((pose["lon"] as? Double ?? 0) + 117.3273436) < 1e-6)
        #expect(abs((pose["heading_deg"] as? Double ?? 0) - atan2(0.8, -1.8) * 180 / .pi) < 2)
    }
}
