import CaptureKit

extension GeoARConfiguration {
    /// Why a view built with this configuration could not do what it says, with the fix, or nil:
    /// a camera source with a footage output (the view would write nothing: a camera's frames go
    /// to live outputs), footage with a live output, one camera given twice as two paths (the
    /// capture configuration's and the first of the live settings' devices, which would open one
    /// and report the other), or a canvas with a footage output, cameras to switch to, or a size
    /// or rate it cannot have.
    ///
    /// ``GeoARView/present()`` fails with it (the failed phase and `onFailed`) before it loads or
    /// opens anything or takes the session's slot; a program can check it when it builds the
    /// configuration, to refuse sooner.
    public var problem: GeoARError? {
        switch (source, output) {
        case (.camera, .footage), (.canvas, .footage):
            let kind = if case .canvas = source { "canvas" } else { "camera" }
            return .configuration(
                "a \(kind) view writes live outputs: give it .live(…) (JPEG files, a stream, a virtual camera) or "
                    + ".none; a footage output is for a footage source")
        case (.canvas(let size, let rate), _):
            if case .live(_, let settings, _) = output, !settings.devices.allSatisfy({ $0 == "canvas" }) {
                return .configuration(
                    "a canvas has no camera to switch to: give its live settings no devices (devices: []), not "
                        + settings.devices.map { "'\($0)'" }.joined(separator: ", "))
            }
            return CaptureSession.canvasProblem(size: size, framesPerSecond: rate).map { .configuration($0) }
        case (.footage, .live), (.recording, .live):
            return .configuration(
                "footage is written to a footage output (.footage(…): files, an MJPEG, Y4M or video file, or "
                    + "stdout); a live output is for a camera source")
        case (.camera(let camera), .live(_, let settings, _)):
            guard let path = camera.devicePath, let first = settings.devices.first, path != first else { return nil }
            return .configuration(
                "the camera is given twice: '\(path)' in the capture configuration and '\(first)' first in the live "
                    + "settings' devices; give the same path (the devices are the cameras to switch between, the "
                    + "first opened first)")
        case (.recording(let paths, _), _) where paths.isEmpty:
            return .configuration("a recording is one video file or more: give its files in recording order")
        default:
            return nil
        }
    }
}
