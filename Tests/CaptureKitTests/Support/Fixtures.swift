import Foundation

/// Test data: the webcam MJPEG frame in Fixtures/, and raw frames made in code.
enum Fixtures {
    /// A real MJPEG frame shaped like a UVC webcam's (640x480, 4:2:2, no Huffman tables).
    static func webcamFrame() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "Fixtures/webcam-640x480", withExtension: "mjpg") else {
            throw FixtureMissing(name: "webcam-640x480.mjpg")
        }
        return Array(try Data(contentsOf: url))
    }

    /// A YUYV frame of the given size whose bytes encode `seed`, so each frame is distinct.
    static func yuyvFrame(width: Int = 640, height: Int = 480, seed: UInt8 = 0) -> [UInt8] {
        (0..<(width * height * 2)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    struct FixtureMissing: Error { let name: String }
}
