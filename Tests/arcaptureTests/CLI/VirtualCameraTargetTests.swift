import Testing

@testable import ArcaptureCLI
@testable import GeoAR

/// `--output v4l2:NODE`, read once for capture and footage.
@Suite("virtual camera output names")
struct VirtualCameraTargetTests {
    @Test(
        "v4l2:NODE names the node and the encoding (YUYV unless the format says MJPEG)",
        arguments: [
            ("v4l2:/dev/video10", nil, "/dev/video10", "yuyv"), ("v4l2:/dev/video11", "YUYV", "/dev/video11", "yuyv"),
            ("v4l2:/dev/video10", "mjpeg", "/dev/video10", "mjpeg"),
            ("v4l2:/dev/v4l/by-path/x", "jpeg", "/dev/v4l/by-path/x", "mjpeg"),
        ])
    func read(output: String, format: String?, path: String, encoding: String) throws {
        let target = try #require(try VirtualCameraTarget(output: output, format: format, formatOption: "--format"))
        #expect(target.path == path)
        #expect(target.encoding.rawValue == encoding)
    }

    @Test("other names are no virtual camera's", arguments: ["out.mjpeg", "-", "frames/%05n.jpg", "/dev/video10"])
    func notACamera(output: String) throws {
        #expect(try VirtualCameraTarget(output: output, format: "y4m", formatOption: "--format") == nil)
    }

    @Test(
        "a node that is no path, or an encoding a loopback does not take, says so with the option's name",
        arguments: [
            (
                "v4l2:video10", nil, "--format",
                "needs the loopback's node, such as v4l2:/dev/video10, not 'v4l2:video10'"
            ),
            (
                "v4l2:/dev/video10", "y4m", "--format-out",
                "--format-out for a virtual camera must be yuyv or mjpeg, not 'y4m'"
            ),
            ("v4l2:/dev/video10", "mp4", "--format", "--format for a virtual camera must be yuyv or mjpeg, not 'mp4'"),
        ])
    func refused(output: String, format: String?, option: String, message: String) {
        #expect {
            _ = try VirtualCameraTarget(output: output, format: format, formatOption: option)
        } throws: { error in
            (error as? PipelineConfigurationError)?.description.contains(message) == true
        }
    }
}
