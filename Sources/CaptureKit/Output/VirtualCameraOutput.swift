import ArcaptureCore
import Glibc

/// A virtual camera: frames written to a v4l2loopback device's output side, which browsers, OBS,
/// Zoom, ffmpeg and any V4L2 program then open as a webcam (OBS's own virtual camera is built on
/// the same driver).
///
/// Opening checks that the node is a video output and that no other program is writing to it.
/// The first frame sets the output format (`VIDIOC_S_FMT` on the output queue: YUYV, which every
/// consumer reads, or MJPEG), the rate (`VIDIOC_S_PARM`) and calls `VIDIOC_STREAMON`:
/// v4l2loopback 0.12 with `exclusive_caps=1` is left unusable for the next producer by one that
/// only writes (v4l2loopback#470). Each frame is then one whole `write()`, at the source's pace.
///
/// - Important: Not thread-safe; one output belongs to one writer's queue.
public final class VirtualCameraOutput {
    /// How frames are laid out on the device.
    public enum Encoding: String, Sendable, CaseIterable {
        /// Packed YUYV 4:2:2, what every V4L2 consumer reads (the default).
        case yuyv
        /// Motion-JPEG: smaller frames, for consumers that read it.
        case mjpeg
    }

    /// The node, as given.
    public let path: String
    /// How frames are laid out.
    public let encoding: Encoding
    private let device: KernelVideoDevice
    /// The size set on the first frame; later frames must keep it.
    private var size: FrameSize?

    /// Opens `path` and checks it is a video output that nobody else writes to.
    ///
    /// - Throws: ``VirtualCameraError``: ``VirtualCameraError/Kind/unavailable`` for a missing node
    ///   or one that is not a video output, ``VirtualCameraError/Kind/busy`` when another program
    ///   writes to it, ``VirtualCameraError/Kind/denied`` without permission.
    public init(path: String, encoding: Encoding) throws(VirtualCameraError) {
        self.path = path
        self.encoding = encoding
        let device: KernelVideoDevice
        do {
            device = try KernelVideoDevice.open(path, usesLibV4L2: false)
        } catch {
            switch error.errno {
            case .noSuchFile, .noSuchDevice:
                throw VirtualCameraError(
                    path: path, reason: "no such device; \(VirtualCameraError.setUp)", kind: .unavailable)
            case .permissionDenied, .notPermitted:
                throw VirtualCameraError(
                    path: path, reason: "permission denied (is this user in the group video?)", kind: .denied)
            case .busy:
                throw Self.busy(path)
            default:
                throw VirtualCameraError(path: path, reason: error.description, kind: .unavailable)
            }
        }
        self.device = device
        let capability: V4L2Capability
        do {
            capability = try device.queryCapability()
        } catch {
            device.close()
            throw VirtualCameraError(
                path: path, reason: "not a video device (\(error)); \(VirtualCameraError.setUp)", kind: .unavailable)
        }
        let node = capability.nodeCapabilities
        guard node.contains(.videoOutput) else {
            device.close()
            // v4l2loopback with exclusive_caps=1 shows only its capture side while a writer holds it.
            if capability.driver == "v4l2 loopback" && node.contains(.videoCapture) { throw Self.busy(path) }
            throw VirtualCameraError(
                path: path,
                reason:
                    "\(capability.card) (driver \(capability.driver)) is not a video output; \(VirtualCameraError.setUp)",
                kind: .unavailable)
        }
    }

    deinit { close() }

    private static func busy(_ path: String) -> VirtualCameraError {
        VirtualCameraError(
            path: path,
            reason:
                "another program is writing to it; stop that one, or load v4l2loopback with one device per writer (modprobe v4l2loopback devices=2)",
            kind: .busy)
    }

    /// Writes one frame as YUYV (``Encoding/yuyv``): its planes packed, in limited range
    /// (`YCbCrImage/packedYUYV(limitedRange:)`).
    ///
    /// - Parameters:
    ///   - image: the frame; its width must be even.
    ///   - fullRange: whether its samples are full range (JPEG's, and a camera's frames as
    ///     CaptureKit decodes them), compressed to limited range on the way out; a video's
    ///     limited-range samples go out as they are.
    ///   - frameRate: the source's rate, announced to consumers with the first frame.
    /// - Throws: ``VirtualCameraError``.
    public func write(_ image: YCbCrImage, fullRange: Bool = true, frameRate: FrameInterval?)
        throws(VirtualCameraError)
    {
        guard image.width % 2 == 0 else {
            throw VirtualCameraError(
                path: path, reason: "YUYV needs an even width, and the frames are \(image.width) wide", kind: .failed)
        }
        let size = FrameSize(width: UInt32(image.width), height: UInt32(image.height))
        try start(size, frameRate: frameRate)
        try writeWhole(image.packedYUYV(limitedRange: fullRange))
    }

    /// Writes one frame that is already packed YUYV (``Encoding/yuyv``: a YUYV camera's own frame,
    /// limited range as V4L2 cameras give it), `size` pixels without row padding.
    ///
    /// - Throws: ``VirtualCameraError``.
    public func write(yuyv: [UInt8], size: FrameSize, frameRate: FrameInterval?) throws(VirtualCameraError) {
        guard yuyv.count == Int(size.width) * Int(size.height) * 2 else {
            throw VirtualCameraError(
                path: path,
                reason: "a YUYV frame of \(size) must be \(size.width * size.height * 2) bytes, not \(yuyv.count)",
                kind: .failed)
        }
        try start(size, frameRate: frameRate)
        try writeWhole(yuyv)
    }

    /// Writes one JPEG frame (``Encoding/mjpeg``) of `size` (read from its header when nil).
    ///
    /// - Throws: ``VirtualCameraError``.
    public func write(jpeg: [UInt8], size: FrameSize? = nil, frameRate: FrameInterval?) throws(VirtualCameraError) {
        guard let size = size ?? JPEGStructure.imageSize(of: jpeg) else {
            throw VirtualCameraError(path: path, reason: "a frame is no JPEG whose size can be read", kind: .failed)
        }
        try start(size, frameRate: frameRate)
        try writeWhole(jpeg)
    }

    /// Stops the stream and closes the node; consumers then see the device go idle.
    public func close() {
        if size != nil { try? device.stopStreaming(.output) }
        size = nil
        device.close()
    }

    /// Sets the format and rate and starts the output stream on the first frame; later frames
    /// must keep its size (consumers have negotiated it).
    private func start(_ frameSize: FrameSize, frameRate: FrameInterval?) throws(VirtualCameraError) {
        if let size {
            guard size == frameSize else {
                throw VirtualCameraError(
                    path: path,
                    reason: "the frames changed size from \(size) to \(frameSize) (a virtual camera keeps one)",
                    kind: .failed)
            }
            return
        }
        let (width, height) = (frameSize.width, frameSize.height)
        let fourCC: FourCC = encoding == .yuyv ? .yuyv : .mjpeg
        // YUYV as V4L2 defines it for a camera: sRGB primaries, limited range (packedYUYV compresses
        // the planes' full range to it); MJPEG in the JPEG colour space, full range.
        let requested = V4L2Format(
            pixelFormat: fourCC, width: width, height: height, field: 1,
            bytesPerLine: encoding == .yuyv ? width * 2 : 0, sizeImage: width * height * 2,
            colorspace: encoding == .yuyv ? 8 : 7, quantization: encoding == .yuyv ? 2 : 1)
        do {
            let applied = try device.setFormat(requested, .output)
            guard applied.pixelFormat == fourCC, applied.width == width, applied.height == height else {
                throw VirtualCameraError(
                    path: path,
                    reason:
                        "the driver set \(applied.pixelFormat) \(applied.width)x\(applied.height) instead of \(fourCC) \(frameSize)",
                    kind: .failed)
            }
            if let frameRate { _ = try? device.setFrameInterval(frameRate, .output) }
            try device.startStreaming(.output)
        } catch let error as VirtualCameraError {
            throw error
        } catch let error as SystemCallError {
            if error.errno == .busy { throw Self.busy(path) }
            throw VirtualCameraError(path: path, reason: error.description, kind: .failed)
        } catch {
            throw VirtualCameraError(path: path, reason: "\(error)", kind: .failed)
        }
        size = frameSize
    }

    private func writeWhole(_ bytes: [UInt8]) throws(VirtualCameraError) {
        let written = bytes.withUnsafeBytes { raw in device.write(raw) }
        switch written {
        case .success(let count) where count == bytes.count:
            return
        case .success(let count):
            throw VirtualCameraError(
                path: path, reason: "the driver took \(count) of a frame's \(bytes.count) bytes", kind: .failed)
        case .failure(let error):
            throw VirtualCameraError(path: path, reason: error.description, kind: .failed)
        }
    }
}
