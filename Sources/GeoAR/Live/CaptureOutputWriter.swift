import ArcaptureCore
import CaptureKit
import Foundation
import JPEGKit

/// Writes selected frames to files, a stream on stdout or a virtual camera.
///
/// - Important: Not thread-safe; one writer belongs to the capture's writer queue.
public final class CaptureOutputWriter {
    /// Where frames go.
    public let destination: CaptureDestination
    /// JPEG quality for raw frames, which must be encoded.
    public let quality: Int
    /// MCU rows per restart interval in the JPEGs encoded (0: no restart markers).
    public let restartRows: Int
    let frames: FrameJPEGWriter
    let encoder: JPEGEncoder
    private var y4m = Y4MStreamState()
    /// Added to each frame's number in file names: the highest `%n` already in the folder when the
    /// writer was made, so a time-lapse started again continues after the last run's frames.
    public let counterOffset: Int
    /// The names this capture has given its files (a template without a counter can repeat one).
    private var names: FrameNameLedger?
    /// The virtual camera, opened by ``checkDestination()`` (or by the first frame).
    var virtualCamera: VirtualCameraOutput?

    /// - Throws: `JPEGError` when libjpeg-turbo cannot allocate.
    public init(destination: CaptureDestination, quality: Int, restartRows: Int = 1) throws(JPEGError) {
        self.destination = destination
        self.restartRows = restartRows
        if case .files(let template) = destination {
            names = FrameNameLedger(template: template)
            counterOffset = template.highestExistingCounter()
        } else {
            counterOffset = 0
        }
        self.quality = quality
        frames = try FrameJPEGWriter()
        encoder = try JPEGEncoder()
    }

    /// Whether the first file can be created, before the camera opens (see
    /// ``AtomicFileWriter/checkCanCreate(_:)``); streams and ``CaptureDestination/discard`` always can.
    ///
    /// A virtual camera is opened here, so a node that is no loopback output, or that another
    /// program writes to, is said before the camera starts.
    ///
    /// - Throws: ``OutputError`` saying why not.
    public func checkDestination() throws(OutputError) {
        switch destination {
        case .files(let template):
            try AtomicFileWriter.checkCanCreate(template.name(counter: counterOffset + 1, date: Date()))
        case .virtualCamera:
            _ = try openVirtualCamera()
        default:
            return
        }
    }

    /// The frame's mean luma (0–255), sampled, for warm-up settling; nil when it cannot be read.
    public func brightness(of frame: VideoFrame) -> Double? {
        if let mean = YCbCrImage.meanLuma(of: frame) { return mean }  // raw: no conversion needed
        guard let image = try? frames.image(for: frame) else { return nil }
        let luma = image.planes[0]
        var total = 0
        var count = 0
        for y in stride(from: 0, to: luma.height, by: 4) {
            for x in stride(from: 0, to: luma.width, by: 4) {
                total += Int(luma[x, y])
                count += 1
            }
        }
        return count == 0 ? nil : Double(total) / Double(count)
    }

    /// Writes one frame.
    ///
    /// - Parameters:
    ///   - frame: the frame.
    ///   - counter: its number among written frames, from 1 (for `%n` in file names).
    ///   - frameRate: the stream's rate, for a Y4M header.
    /// - Throws: ``FrameWriteError``.
    public func write(_ frame: VideoFrame, counter: Int, frameRate: FrameInterval?) throws(FrameWriteError)
        -> WrittenFrame
    {
        switch destination {
        case .discard:
            return WrittenFrame(file: nil, bytes: 0, passedThrough: true)
        case .virtualCamera:
            return try writeVirtualCamera(frame, frameRate: frameRate)
        case .files(let template):
            let (bytes, passedThrough) = try jpeg(frame)
            let name = template.name(counter: counterOffset + counter, date: frame.captureDate)
            do {
                try names?.claim(name)
                try Self.writeFile(name, bytes)
            } catch {
                throw .output(error)
            }
            return WrittenFrame(file: name, bytes: bytes.count, passedThrough: passedThrough)
        case .mjpegStream:
            let (bytes, passedThrough) = try jpeg(frame)
            try Self.writeToStandardOutput(bytes)
            return WrittenFrame(file: nil, bytes: bytes.count, passedThrough: passedThrough)
        case .broadcast(let broadcast):
            let (bytes, passedThrough) = try jpeg(frame)
            broadcast.publish(bytes, capturedAt: frame.captureDate)
            return WrittenFrame(file: nil, bytes: bytes.count, passedThrough: passedThrough)
        case .y4mStream:
            let image: YCbCrImage
            do {
                image = try frames.image(for: frame)
            } catch {
                throw .conversion(error)
            }
            let bytes = try y4m.bytes(for: image) { Self.y4mHeader(for: $0, frameRate: frameRate) }
            try Self.writeToStandardOutput(bytes)
            return WrittenFrame(file: nil, bytes: bytes.count, passedThrough: false)
        }
    }

    /// Writes planes made from `frame` (the frame with an overlay drawn): encoded for files and
    /// MJPEG, as they are for Y4M.
    ///
    /// - Throws: ``FrameWriteError``.
    public func write(_ image: YCbCrImage, for frame: VideoFrame, counter: Int, frameRate: FrameInterval?)
        throws(FrameWriteError) -> WrittenFrame
    {
        switch destination {
        case .discard:
            return WrittenFrame(file: nil, bytes: 0, passedThrough: false)
        case .virtualCamera:
            return try writeVirtualCamera(image, frameRate: frameRate)
        case .y4mStream:
            let bytes = try y4m.bytes(for: image) { Self.y4mHeader(for: $0, frameRate: frameRate) }
            try Self.writeToStandardOutput(bytes)
            return WrittenFrame(file: nil, bytes: bytes.count, passedThrough: false)
        case .files, .broadcast, .mjpegStream:
            let bytes: [UInt8]
            do {
                bytes = try encoder.encode(image, quality: quality, restartRows: restartRows)
            } catch {
                throw .conversion(.undecodable(error))
            }
            return try write(annotatedJPEG: bytes, for: frame, counter: counter)
        }
    }

    /// Writes an annotated frame already encoded (a spliced camera frame is) to files, stdout or
    /// the clients; destinations that take planes are given planes instead.
    ///
    /// - Throws: ``FrameWriteError``.
    public func write(annotatedJPEG bytes: [UInt8], for frame: VideoFrame, counter: Int) throws(FrameWriteError)
        -> WrittenFrame
    {
        switch destination {
        case .files(let template):
            let name = template.name(counter: counterOffset + counter, date: frame.captureDate)
            do {
                try names?.claim(name)
                try Self.writeFile(name, bytes)
            } catch {
                throw .output(error)
            }
            return WrittenFrame(file: name, bytes: bytes.count, passedThrough: false)
        case .broadcast(let broadcast):
            broadcast.publish(bytes, capturedAt: frame.captureDate)
        case .mjpegStream:
            try Self.writeToStandardOutput(bytes)
        case .discard, .virtualCamera, .y4mStream:
            break
        }
        return WrittenFrame(file: nil, bytes: bytes.count, passedThrough: false)
    }

    /// Whether frames for this destination are JPEGs (so a camera's MJPEG may be spliced).
    public var takesJPEG: Bool {
        switch destination {
        case .files, .broadcast, .mjpegStream: true
        case .discard, .virtualCamera, .y4mStream: false
        }
    }

    /// Writes a whole frame file atomically; a failure leaves no trace of it. Unless `replacing`, a
    /// file already there is left as it was and the write fails (``AtomicFileWriter``). Folders
    /// the name puts it in are made when missing: a template may give each day its own.
    public static func writeFile(_ name: String, _ bytes: [UInt8], replacing: Bool = true) throws(OutputError) {
        let file = try AtomicFileWriter(destination: name, replacing: replacing, creatingFolders: true)
        do {
            try file.write(bytes)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    func jpeg(_ frame: VideoFrame) throws(FrameWriteError) -> (bytes: [UInt8], passedThrough: Bool) {
        // Files are decoded once to catch damage inside the image; a live stream checks structure only.
        let validation: FrameJPEGWriter.Validation
        switch destination {
        case .mjpegStream, .broadcast, .virtualCamera: validation = .structure
        default: validation = .decode
        }
        do {
            return try frames.jpeg(for: frame, quality: quality, validation: validation, restartRows: restartRows)
        } catch {
            throw .conversion(error)
        }
    }

    /// A Y4M frame: the `FRAME` line, then each plane row after row without padding.
    public static func y4mFrame(_ image: YCbCrImage) -> [UInt8] {
        var bytes = Array("FRAME\n".utf8)
        bytes.reserveCapacity(bytes.count + image.planes.reduce(0) { $0 + $1.width * $1.height })
        for (plane, range) in y4mChunks(of: image) { bytes += image.planes[plane].bytes[range] }
        return bytes
    }

    /// A frame's samples in Y4M order, as few pieces of its planes as the layout allows: a whole
    /// plane at once when its rows are not padded, else row by row.
    public static func y4mChunks(of image: YCbCrImage) -> [(plane: Int, range: Range<Int>)] {
        var chunks: [(plane: Int, range: Range<Int>)] = []
        for (index, plane) in image.planes.enumerated() {
            if plane.stride == plane.width {
                chunks.append((index, 0..<(plane.width * plane.height)))
            } else {
                for row in 0..<plane.height {
                    chunks.append((index, (row * plane.stride)..<(row * plane.stride + plane.width)))
                }
            }
        }
        return chunks
    }

    /// Writes all of `bytes` to stdout, retrying short writes and EINTR.
    public static func writeToStandardOutput(_ bytes: [UInt8]) throws(FrameWriteError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(FrameWriteError) in try writeToStandardOutput(buffer) }
        }
        try result.get()
    }

    /// Writes all of `buffer` to stdout, retrying short writes and EINTR.
    public static func writeToStandardOutput(_ buffer: UnsafeRawBufferPointer) throws(FrameWriteError) {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw .readerClosed }
                throw .output(OutputError(path: "-", writing: errno))
            }
            offset += written
        }
    }

    /// `YUV4MPEG2 W1280 H720 F25:1 Ip A1:1 C422 XCOLORRANGE=FULL`: samples are full range (JPEG's).
    public static func y4mHeader(for image: YCbCrImage, frameRate: FrameInterval?) -> String {
        // A frame interval is seconds per frame: its denominator and numerator are frames per second.
        let rate = frameRate.map { (Int($0.denominator), Int($0.numerator)) } ?? (30, 1)
        return Y4MStreamState.headerLine(for: image, rate: rate, fullRange: true)
    }
}
