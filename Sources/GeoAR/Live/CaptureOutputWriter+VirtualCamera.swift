import ArcaptureCore
import CaptureKit

/// The virtual camera destination (``CaptureDestination/virtualCamera(path:encoding:)``).
///
/// - Important: Runs on the capture's writer queue, as the writer does.
extension CaptureOutputWriter {
    /// The virtual camera, opened on first use.
    func openVirtualCamera() throws(OutputError) -> VirtualCameraOutput {
        if let virtualCamera { return virtualCamera }
        guard case .virtualCamera(let path, let encoding) = destination else {
            throw OutputError(path: "", reason: "not a virtual camera", kind: .unavailable)
        }
        do {
            let opened = try VirtualCameraOutput(path: path, encoding: encoding)
            virtualCamera = opened
            return opened
        } catch {
            throw OutputError(error)
        }
    }

    /// Writes `frame` to the virtual camera: as YUYV planes, or as the JPEG (passed through when
    /// the camera's own).
    func writeVirtualCamera(_ frame: VideoFrame, frameRate: FrameInterval?) throws(FrameWriteError)
        -> WrittenFrame
    {
        let camera: VirtualCameraOutput
        do {
            camera = try openVirtualCamera()
        } catch {
            throw .output(error)
        }
        do {
            switch camera.encoding {
            case .yuyv where frame.format.pixelFormat == .yuyv && frame.format.bytesPerLine == frame.format.width * 2:
                // A YUYV camera's frame is already what goes out: no round trip through planes.
                try camera.write(yuyv: frame.data, size: frame.format.size, frameRate: frameRate)
                return WrittenFrame(file: nil, bytes: frame.data.count, passedThrough: true)
            case .yuyv:
                let image: YCbCrImage
                do {
                    image = try frames.image(for: frame)
                } catch {
                    throw FrameWriteError.conversion(error)
                }
                try camera.write(image, frameRate: frameRate)
                return WrittenFrame(file: nil, bytes: image.width * image.height * 2, passedThrough: false)
            case .mjpeg:
                let (bytes, passedThrough) = try jpeg(frame)
                try camera.write(jpeg: bytes, size: frame.format.size, frameRate: frameRate)
                return WrittenFrame(file: nil, bytes: bytes.count, passedThrough: passedThrough)
            }
        } catch let error as VirtualCameraError {
            throw .output(OutputError(error))
        } catch let error as FrameWriteError {
            throw error
        } catch {
            throw .output(OutputError(path: camera.path, reason: "\(error)", kind: .write))
        }
    }

    /// Writes drawn planes to the virtual camera.
    func writeVirtualCamera(_ image: YCbCrImage, frameRate: FrameInterval?) throws(FrameWriteError)
        -> WrittenFrame
    {
        do {
            let camera = try openVirtualCamera()
            switch camera.encoding {
            case .yuyv:
                try camera.write(image, frameRate: frameRate)
                return WrittenFrame(file: nil, bytes: image.width * image.height * 2, passedThrough: false)
            case .mjpeg:
                let bytes: [UInt8]
                do {
                    bytes = try encoder.encode(image, quality: quality, restartRows: restartRows)
                } catch {
                    throw FrameWriteError.conversion(.undecodable(error))
                }
                let size = FrameSize(width: UInt32(image.width), height: UInt32(image.height))
                try camera.write(jpeg: bytes, size: size, frameRate: frameRate)
                return WrittenFrame(file: nil, bytes: bytes.count, passedThrough: false)
            }
        } catch let error as VirtualCameraError {
            throw .output(OutputError(error))
        } catch let error as OutputError {
            throw .output(error)
        } catch let error as FrameWriteError {
            throw error
        } catch {
            throw .output(OutputError(path: "", reason: "\(error)", kind: .write))
        }
    }
}
