import Foundation
import TestSupport
import Testing

@testable import ARCompositor
@testable import ArcaptureCore

@Suite("Camera models and calibration files")
struct CameraModelTests {
    static func fixture(_ name: String) -> String {
        Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)?.path ?? "missing \(name)"
    }

    static func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("arcapture-\(UUID().uuidString).yaml")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a field of view gives fx = fy = (W/2)/tan(hfov/2) and the centre at W/2, H/2")
    func fieldOfView() {
        let camera = CameraModel(horizontalFieldOfView: 90, width: 1280, height: 720)
        #expect(abs(camera.intrinsics.fx - 640) < 1e-9)  // tan(45°) = 1
        #expect(camera.intrinsics.fy == camera.intrinsics.fx)
        #expect((camera.intrinsics.cx, camera.intrinsics.cy) == (640, 360))
        #expect(camera.distortion == .none)
    }

    @Test("a ROS camera_info file loads with its name, intrinsics and plumb_bob coefficients")
    func rosFile() throws {
        let camera = try CameraModel(cameraInfoFile: Self.fixture("camera-info-ros.yaml"))
        #expect((camera.width, camera.height, camera.name) == (640, 480, "usb_cam"))
        #expect(camera.intrinsics == CameraIntrinsics(fx: 612.4, fy: 611.8, cx: 318.9, cy: 241.3))
        #expect(camera.distortion == .plumbBob(k1: -0.1127, k2: 0.0853, p1: 0.0011, p2: -0.0007, k3: 0))
    }

    @Test("an OpenCV file with %YAML:1.0, tags and eight coefficients loads as rational_polynomial")
    func openCVFile() throws {
        let camera = try CameraModel(cameraInfoFile: Self.fixture("camera-opencv.yaml"))
        #expect((camera.width, camera.height) == (1920, 1080))
        #expect(camera.intrinsics == CameraIntrinsics(fx: 1100, fy: 1100, cx: 960, cy: 540))
        #expect(
            camera.distortion
                == .rationalPolynomial(
                    k1: 0.21, k2: -0.034, p1: 0.001, p2: -0.0002, k3: 0.0012, k4: 0.56, k5: 0.01, k6: 0.002))
    }

    @Test("a calibration is scaled to a frame of the same aspect, and refused for another")
    func scaling() throws {
        let path = Self.fixture("camera-info-ros.yaml")
        let scaled = try CameraModel(cameraInfoFile: path, frameSize: (1280, 960))
        #expect(scaled.intrinsics == CameraIntrinsics(fx: 1224.8, fy: 1223.6, cx: 637.8, cy: 482.6))
        #expect((scaled.width, scaled.height) == (1280, 960))
        #expect(throws: InputFileError.self) { try CameraModel(cameraInfoFile: path, frameSize: (1280, 720)) }
        do {
            _ = try CameraModel(cameraInfoFile: path, frameSize: (1280, 720))
        } catch {
            #expect(error.description.contains("is for 640x480 and cannot be scaled to 1280x720"))
        }
    }

    @Test(
        "bad calibration files name the file, the line and the problem",
        arguments: [
            (
                "image_width: 640\nimage_height: 480\ncamera_matrix:\n  data: [600, 0, 320, 0, 600, 240, 0, 0, 1]\ndistortion_model: equidistant\ndistortion_coefficients:\n  data: [0.1, 0.01, 0, 0]\n",
                "line 5: fisheye distortion ('equidistant') is not supported"
            ),
            (
                "image_width: 640\nimage_height: 480\ncamera_matrix:\n  data: [600, 2, 320, 0, 600, 240, 0, 0, 1]\n",
                "line 4: the camera matrix has skew 2.0; only zero skew is supported"
            ),
            (
                "image_width: 640\nimage_height: 480\ncamera_matrix:\n  data: [600, 0, 320, 0, 600, 240]\n",
                "line 4: 'camera_matrix.data' must hold 9 numbers (3x3, row by row), found 6"
            ),
            ("image_width: wide\n", "line 1: 'image_width' must be a positive whole number, found 'wide'"),
            ("image_width: 640\nimage_height: 480\ncamera_matrix: [1, 2\n", "line 4: did not find expected ',' or ']'"),
            (
                "image_width: 640\nimage_height: 480\ncamera_matrix:\n  data: [600, 0, 320, 0, 600, 240, 0, 0, 1]\ndistortion_model: plumb_bob\ndistortion_coefficients:\n  data: [0.1, 0.01, 0]\n",
                "line 7: plumb_bob takes 4 or 5 distortion coefficients, found 3"
            ),
        ])
    func badFiles(text: String, message: String) throws {
        let path = try Self.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try CameraModel(cameraInfoFile: path)
            Issue.record("expected an error containing \(message)")
        } catch {
            #expect(error.description.hasPrefix("\(path): "))
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test("a missing calibration file is reported as missing")
    func missing() {
        #expect(throws: InputFileError.missing(file: "/nonexistent/camera.yaml")) {
            try CameraModel(cameraInfoFile: "/nonexistent/camera.yaml")
        }
    }
}
