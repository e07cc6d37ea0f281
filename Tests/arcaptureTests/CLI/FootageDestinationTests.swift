import CaptureKit
import Testing

@testable import ArcaptureCLI
@testable import Footage
@testable import GeoAR

@Suite("Footage destinations")
struct FootageDestinationTests {
    @Test(
        "a video read for libx264 decodes with one thread (the encoder's own threads use the cores); for anything else libavcodec picks",
        arguments: [
            ("ride.mp4", nil, nil, 1), ("ride.mkv", nil, VideoEncoding.h264(crf: 23, preset: "medium"), 1),
            ("ride.mov", nil, VideoEncoding.mjpeg(quality: 90), 0), ("ride.y4m", nil, nil, 0), ("-", "y4m", nil, 0),
            ("ride.mjpeg", nil, nil, 0), ("frames/%05n.jpg", nil, nil, 0), ("v4l2:/dev/video10", nil, nil, 0),
        ] as [(String, String?, VideoEncoding?, Int)])
    func decoderThreads(output: String, format: String?, encoding: VideoEncoding?, threads: Int) throws {
        let destination = try FootageDestination(output: output, format: format, encoding: encoding)
        #expect(destination.decoderThreads == threads, "\(destination)")
    }
}
