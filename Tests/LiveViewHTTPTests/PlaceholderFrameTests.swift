import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import GeoAR
@testable import JPEGKit
@testable import LiveViewHTTP

/// The frame a live view server sends while no camera frame comes.
@Suite("Live view placeholder frames")
struct PlaceholderFrameTests {
    /// Luma pixels brighter than 200: the placeholder's white text on its dark grey.
    static func brightPixels(_ image: YCbCrImage) -> Int {
        let plane = image.planes[0]
        var count = 0
        for row in 0..<plane.height {
            for column in 0..<plane.width where plane.bytes[row * plane.stride + column] > 200 { count += 1 }
        }
        return count
    }

    @Test("it says why in white text on dark grey, at the size asked for", arguments: zip([320, 1280], [240, 720]))
    func drawn(width: Int, height: Int) throws {
        let size = (width, height)
        let jpeg = try #require(
            PlaceholderFrame.jpeg(
                width: size.0, height: size.1, lines: PlaceholderFrame.lines(forPhase: "interrupted: unplugged")))
        let image = try JPEGDecoder().decode(jpeg)
        #expect(image.width == size.0 && image.height == size.1)
        #expect(Self.brightPixels(image) > size.1 / 2, "text is drawn")
        let dark = image.planes[0].bytes[0]
        #expect(dark < 60, "the background is dark: \(dark)")
        #expect(
            PlaceholderFrame.lines(forPhase: "interrupted: unplugged") == [
                "waiting for the camera", "interrupted: unplugged",
            ])
        #expect(PlaceholderFrame.lines(forPhase: "starting the camera") == ["starting the camera"])
    }

    @Test(
        "with no camera frame for the delay, clients get placeholders at the last frame's size; a camera frame ends them"
    )
    func served() throws {
        let model = LiveViewServerTests.Model()
        model.phase.withLock { $0 = "interrupted: the camera went away" }
        let server = try LiveViewServerTests.started(model, placeholderDelay: .milliseconds(500))
        defer { server.stop() }
        let camera = try LiveViewServerTests.jpeg(90)  // 320x240
        server.broadcast.publish(camera, capturedAt: Date())
        let stream = try RawHTTPClient(port: server.address.port)
        stream.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(waitUntil(seconds: 30) { server.broadcast.placeholderCount >= 2 })
        // The stream client stays connected and receives them as parts.
        let received = stream.read(timeout: .seconds(30)) { bytes in
            String(decoding: bytes, as: UTF8.self).components(separatedBy: "--arcaptureframe").count > 3
        }
        #expect(String(decoding: received, as: UTF8.self).components(separatedBy: "--arcaptureframe").count > 3)
        let snapshot = try #require(server.broadcast.latest)
        #expect(snapshot.isPlaceholder)
        let image = try JPEGDecoder().decode(snapshot.jpeg)
        #expect(image.width == 320 && image.height == 240, "the camera's size")
        #expect(Self.brightPixels(image) > 100)
        #expect(server.broadcast.publishedCount == 1, "placeholders are not counted as camera frames")
        // The camera is back: its frame is the newest again.
        server.broadcast.publish(camera, capturedAt: Date())
        #expect(server.broadcast.latest?.isPlaceholder == false)
        #expect(server.broadcast.publishedCount == 2)
    }
}
