/// Something a ``CaptureSession`` hands its frames to: AVCaptureOutput's role. GeoAR's
/// `PhotoOutput` (the next frame as a JPEG) is one; the session knows nothing of what an output
/// makes of a frame (a codec, a file).
///
/// The session calls ``attached()`` once, from ``CaptureSession/addOutput(_:)``'s caller;
/// ``receive(_:)`` with each valid frame on its queue, after the buffer went back to the driver
/// (an output hands heavy work off); ``sessionEnded(_:)`` when it stops (nil) or fails.
public protocol CaptureOutput: AnyObject, Sendable {
    /// The output was attached to a session.
    func attached()
    /// A frame the session delivered. Runs on the session queue: return quickly.
    func receive(_ frame: VideoFrame)
    /// The session stopped (nil) or failed (the error): what waits for a frame will not get one.
    func sessionEnded(_ error: CaptureError?)
}
