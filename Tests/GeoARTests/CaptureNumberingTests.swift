import Foundation
import TestSupport
import Testing

@testable import CaptureKit
@testable import GeoAR

/// A time-lapse started again in the same folder continues its numbering after the frames there,
/// rather than writing its frame 1 over the last run's.
@Suite("Capture numbering continues after the frames there")
struct CaptureNumberingTests {
    @Test("the counter is read back from the names a template makes, and only from those")
    func counterInNames() {
        #expect(OutputTemplate.counter(in: "lapse-0012.jpg", namePattern: "lapse-%4n.jpg") == 12)
        #expect(OutputTemplate.counter(in: "lapse-123456.jpg", namePattern: "lapse-%4n.jpg") == 123_456)
        #expect(OutputTemplate.counter(in: "7.jpg", namePattern: "%n.jpg") == 7)
        #expect(
            OutputTemplate.counter(in: "cam-20261205-081500-0042.jpg", namePattern: "cam-%Y%m%d-%H%M%S-%4n.jpg") == 42)
        #expect(OutputTemplate.counter(in: "100%-3.jpg", namePattern: "100%%-%n.jpg") == 3)
        // Many conversions against a long name that almost matches: answered, not backtracked forever.
        let long = String(repeating: "1-", count: 200) + "0042.png"
        #expect(OutputTemplate.counter(in: long, namePattern: "%Y-%m-%d-%H-%M-%S-%j-%u-%4n.jpg") == nil)
        #expect(OutputTemplate.counter(in: String(long.dropLast(3)) + "jpg", namePattern: "%Y-%m-%d-%4n.jpg") == 42)
        for other in ["lapse-0012.jpeg", "lapse-.jpg", "other-0012.jpg", ".lapse-0012.jpg.1.tmp", "lapse-12x.jpg"] {
            #expect(OutputTemplate.counter(in: other, namePattern: "lapse-%4n.jpg") == nil, "\(other)")
        }
    }

    @Test("the highest frame number in the template's folder; none without %n or without files")
    func highestExisting() throws {
        let directory = try PackagePaths.temporaryDirectory("numbering")
        defer { try? FileManager.default.removeItem(at: directory) }
        let template = OutputTemplate(pattern: directory.appendingPathComponent("lapse-%4n.jpg").path)
        #expect(template.highestExistingCounter() == 0)
        for name in ["lapse-0001.jpg", "lapse-0009.jpg", "lapse-0010.jpg", "notes.txt", "lapse-0500.png"] {
            try Data("x".utf8).write(to: directory.appendingPathComponent(name))
        }
        #expect(template.highestExistingCounter() == 10)
        #expect(
            OutputTemplate(pattern: directory.appendingPathComponent("still-%S.jpg").path).highestExistingCounter() == 0
        )
        let missing = OutputTemplate(pattern: directory.appendingPathComponent("none/lapse-%4n.jpg").path)
        #expect(missing.highestExistingCounter() == 0)
    }

    @Test("a writer over a folder with frames 1-7 writes its first frame as 8 and keeps 1-7 as they were")
    func writerContinues() throws {
        let directory = try PackagePaths.temporaryDirectory("numbering-writer")
        defer { try? FileManager.default.removeItem(at: directory) }
        for number in 1...7 {
            try Data("run one".utf8).write(
                to: directory.appendingPathComponent(String(format: "lapse-%04d.jpg", number)))
        }
        let template = OutputTemplate(pattern: directory.appendingPathComponent("lapse-%4n.jpg").path)
        let writer = try CaptureOutputWriter(destination: .files(template), quality: 90)
        #expect(writer.counterOffset == 7)
        let jpeg = try Fixtures.webcamFrame()
        let frame = VideoFrame(
            data: jpeg, format: V4L2Format(pixelFormat: .mjpeg, width: 640, height: 480), sequence: 0, droppedBefore: 0,
            timestampNanoseconds: 0, captureDate: Date(), flags: [])
        let written = try writer.write(annotatedJPEG: jpeg, for: frame, counter: 1)
        #expect(written.file == directory.appendingPathComponent("lapse-0008.jpg").path)
        for number in 1...7 {
            let kept = try Data(contentsOf: directory.appendingPathComponent(String(format: "lapse-%04d.jpg", number)))
            #expect(kept == Data("run one".utf8))
        }
    }
}
