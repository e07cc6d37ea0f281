import Foundation

/// Test data: the webcam MJPEG frame in Tests/TestSupport/Fixtures/, and raw frames made in code.
public enum Fixtures {
    /// A real MJPEG frame shaped like a UVC webcam's (640x480, 4:2:2, no Huffman tables).
    public static func webcamFrame() throws -> [UInt8] {
        let url = PackagePaths.root.appendingPathComponent("Tests/TestSupport/Fixtures/webcam-640x480.mjpg")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FixtureMissing(name: url.path)
        }
        return Array(data)
    }

    /// A YUYV frame of the given size whose bytes encode `seed`, so each frame is distinct.
    public static func yuyvFrame(width: Int = 640, height: Int = 480, seed: UInt8 = 0) -> [UInt8] {
        (0..<(width * height * 2)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    /// A fixture file that is not where it should be.
    public struct FixtureMissing: Error {
        /// Its path.
        public let name: String
    }
}
