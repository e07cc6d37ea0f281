import CaptureKit
import Footage
import Foundation

/// Writes frames in order to a ``FootageDestination``: single files appear whole when `finish(readToEnd:)`
/// commits them (a run that fails or is stopped leaves no partial file), numbered files appear one
/// by one, each whole; stdout gets bytes as they come.
///
/// Called only from the ordered pipeline's deliveries, which never run concurrently, and then,
/// after the pipeline has finished, from the producer: hence `@unchecked Sendable`.
public final class FootageSink: @unchecked Sendable {
    private let destination: FootageDestination
    private let frameRate: (numerator: Int, denominator: Int)
    /// Whether Y4M output says full range (JPEG input, full-range Y4M) or limited (video's).
    private let fullRange: Bool
    private var file: AtomicFileWriter?
    private var sidecar: AtomicFileWriter?
    private var y4m = Y4MStreamState()
    private let encoder = SidecarRecord.makeEncoder()
    /// Where written Y4M frames go back to, to be read into again.
    private let pool: FrameBufferPool?
    /// Frames written so far.
    public private(set) var written = 0
    /// Whether files that exist may be replaced (`--force`).
    private let replacing: Bool
    /// The names this run has given its files (a template without a counter can repeat one).
    private var names: FrameNameLedger?
    /// A video file's encoder and muxer, writing into `file`'s temporary twin.
    private var video: VideoFileWriter?
    /// A virtual camera, written at the footage's rate from when its first frame went out.
    private var virtualCamera: VirtualCameraOutput?
    private var pacedFrom: ContinuousClock.Instant?

    /// Opens the destination (a file's temporary twin).
    ///
    /// - Parameters:
    ///   - destination: where frames go.
    ///   - frameRate: the rate a Y4M header states.
    ///   - fullRange: whether Y4M output says full range (JPEG input) or limited (video's).
    ///   - path: the sidecar's file, if any.
    ///   - pool: where written Y4M frames go back to, to be read into again.
    ///   - replacing: whether an existing file (the output, the sidecar, a numbered frame) may be
    ///     replaced; when not, the run stops at the first that exists, which is left as it was.
    ///   - videoSource: for a video file written from a video file, the input's streams (from
    ///     `FootageReader.copyStreams(into:)`): timestamps, metadata and copied packets.
    /// - Throws: ``OutputError`` when the file cannot be created.
    public init(
        destination: FootageDestination, frameRate: (numerator: Int, denominator: Int), fullRange: Bool = true,
        sidecar path: String? = nil, pool: FrameBufferPool? = nil, replacing: Bool = true,
        videoSource: VideoStreamCopy? = nil
    ) throws(OutputError) {
        self.replacing = replacing
        self.pool = pool
        self.destination = destination
        self.frameRate = frameRate
        self.fullRange = fullRange
        if let template = destination.template { names = FrameNameLedger(template: template) }
        // Their folders are made when missing, as a frame template's are.
        sidecar = try path.map { path throws(OutputError) in
            try AtomicFileWriter(destination: path, replacing: replacing, creatingFolders: true)
        }
        switch destination {
        case .mjpegFile(let path), .y4mFile(let path):
            file = try AtomicFileWriter(destination: path, replacing: replacing, creatingFolders: true)
        case .videoFile(let path, let format, let encoding):
            let twin = try AtomicFileWriter(destination: path, replacing: replacing, creatingFolders: true)
            file = twin
            let made = Result { () throws(VideoWriteError) in
                try VideoFileWriter(
                    path: twin.temporaryPath, name: path, format: format, encoding: encoding, source: videoSource,
                    frameRate: frameRate, fullRange: fullRange)
            }
            switch made {
            case .success(let writer): video = writer
            case .failure(let error):
                twin.discard()
                throw Self.outputError(error)
            }
        case .virtualCamera(let path, let encoding):
            do {
                virtualCamera = try VirtualCameraOutput(path: path, encoding: encoding)
            } catch {
                throw OutputError(error)
            }
        case .files(let template), .pngFiles(let template):
            // Said before the first frame is read and drawn. The probe's date is today's, which
            // names a folder only when the template has one per day; none is made for it.
            try AtomicFileWriter.checkCanCreate(template.name(counter: 1, date: Date()))
        default: break
        }
    }

    /// Writes the next frame.
    ///
    /// - Throws: ``FrameWriteError`` when writing fails, the reader of stdout went away, or a Y4M
    ///   stream would change size mid-stream.
    public func write(_ output: FrameOutput, date: Date) throws(FrameWriteError) {
        try write(output, date: date, timing: FrameTiming())
    }

    /// Writes the next frame, at its place in the input video (``FrameTiming``).
    func write(_ output: FrameOutput, date: Date, timing: FrameTiming) throws(FrameWriteError) {
        written += 1
        if let video {
            do {
                switch output {
                case .jpeg(let jpeg): try video.write(jpeg: jpeg, timestamp: timing.timestamp, mark: timing.copyMark)
                case .planes(let frame):
                    try video.write(frame, timestamp: timing.timestamp, mark: timing.copyMark)
                    pool?.give(frame)
                case .picture(let picture):
                    try video.write(picture, timestamp: timing.timestamp, mark: timing.copyMark)
                case .png: break  // never made for a video (the destination's layout is not PNG files')
                }
            } catch {
                throw .video(error)
            }
            return
        }
        if let virtualCamera {
            try write(output, to: virtualCamera)
            return
        }
        switch output {
        case .jpeg(let bytes), .png(let bytes):
            if let template = destination.template {
                let name = template.name(counter: written, date: date)
                do {
                    try names?.claim(name)
                    try CaptureOutputWriter.writeFile(name, bytes, replacing: replacing)
                } catch {
                    throw .output(error)
                }
            } else {
                try append(bytes)
            }
        case .picture: break  // never made but for a video file (written above)
        case .planes(let frame):
            // Written plane by plane from the image itself: a Y4M frame is megabytes, and copying
            // it into one array first cost as much as the drawing.
            let image = Y4MStreamState.writable(frame)
            let (rate, full) = (frameRate, fullRange)
            var prefix = try y4m.header(for: image) {
                Y4MStreamState.headerLine(for: $0, rate: rate, fullRange: full)
            }
            prefix += Array("FRAME\n".utf8)
            try append(prefix)
            for (plane, range) in CaptureOutputWriter.y4mChunks(of: image) {
                let result = image.planes[plane].bytes.withUnsafeBytes { samples in
                    Result { () throws(FrameWriteError) in
                        try append(UnsafeRawBufferPointer(rebasing: samples[range]))
                    }
                }
                try result.get()
            }
            pool?.give(frame)
        }
    }

    /// Writes a frame to the virtual camera when its time has come: the footage plays at its own
    /// rate, as a camera would send it (a consumer reading faster would see it as a camera
    /// gone mad, and v4l2loopback keeps only the newest frames).
    private func write(_ output: FrameOutput, to camera: VirtualCameraOutput) throws(FrameWriteError) {
        let interval = Double(frameRate.denominator) / Double(max(frameRate.numerator, 1))
        let start = pacedFrom ?? .now
        pacedFrom = start
        let due = start.advanced(by: .seconds(interval * Double(written - 1)))
        let early = ContinuousClock.now.duration(to: due)
        if early > .zero {
            Thread.sleep(forTimeInterval: early.seconds)
        }
        let rate = FrameInterval(
            numerator: UInt32(clamping: frameRate.denominator), denominator: UInt32(clamping: frameRate.numerator))
        do {
            switch output {
            case .jpeg(let jpeg):
                try camera.write(jpeg: jpeg, frameRate: rate)
            case .planes(let frame):
                try camera.write(frame, fullRange: fullRange, frameRate: rate)
                pool?.give(frame)
            case .picture, .png: break  // never made for a virtual camera (it has no overlay layout)
            }
        } catch {
            throw .output(OutputError(error))
        }
    }

    private func append(_ bytes: [UInt8]) throws(FrameWriteError) {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(FrameWriteError) in try append(buffer) } }
        try result.get()
    }

    /// Appends bytes to the single output file or stdout.
    private func append(_ buffer: UnsafeRawBufferPointer) throws(FrameWriteError) {
        switch destination {
        case .mjpegStream, .y4mStream:
            try CaptureOutputWriter.writeToStandardOutput(buffer)
        case .videoFile: break  // FFmpeg writes it, above
        case .mjpegFile, .y4mFile:
            do {
                try file?.write(buffer)
            } catch {
                throw .output(error)
            }
        case .files, .pngFiles, .virtualCamera:
            break  // numbered files are written whole, a virtual camera's frames each at its time, above
        }
    }

    /// Appends a frame's line to the sidecar, if there is one.
    ///
    /// - Throws: `OutputError`.
    func record(_ record: SidecarRecord) throws(OutputError) {
        guard let sidecar else { return }
        try sidecar.write(Array(record.line(using: encoder).utf8))
    }

    /// Makes a single output file and the sidecar appear (atomically).
    ///
    /// - Parameter readToEnd: whether the footage was read to its end (a video's copied streams
    ///   are then written to theirs), rather than stopped. A stopped run's single file and
    ///   sidecar appear under their ``AtomicFileWriter/partialName(of:)`` (``partialOutputs``),
    ///   never under the names a finished run's have; numbered frames are each whole and final.
    /// - Throws: `OutputError`.
    public func finish(readToEnd: Bool = true) throws(OutputError) {
        do {
            try video?.finish(copyingRest: readToEnd)
        } catch {
            throw Self.outputError(error)
        }
        for writer in [file, sidecar].compactMap({ $0 }) {
            let partial = readToEnd || writer.isStream ? nil : AtomicFileWriter.partialName(of: writer.destination)
            try writer.commit(as: partial)
            if let partial { partialOutputs.append((writer.destination, partial)) }
        }
        virtualCamera?.close()
    }

    /// The files a stopped run wrote under their partial names instead (see ``finish(readToEnd:)``):
    /// each output's name and the one it has.
    public private(set) var partialOutputs: [(output: String, partial: String)] = []

    /// Notes about the video written (streams of the input it could not hold, frames retimed).
    public var videoNotes: [String] {
        guard let video else { return [] }
        var notes: [String] = []
        if video.retimedFrames > 0 {
            notes.append(
                "\(video.retimedFrames) frames came at or before the time of the one before: each moved a tick on")
        }
        if !video.userDataLeftOut.isEmpty {
            notes.append(
                "the camera's user data (\(video.userDataLeftOut.joined(separator: ", "))) is not in the output: "
                    + "it does not end with its index")
        }
        return notes
    }

    /// A video writer's failure as an output's: could not be made (73) or failed writing (74).
    static func outputError(_ error: VideoWriteError) -> OutputError {
        if let errno = error.errno, !error.cannotStart {
            return OutputError(path: error.path, writing: errno, atomic: true)
        }
        return OutputError(path: error.path, reason: error.problem, kind: error.cannotStart ? .create : .write)
    }

    /// Drops the temporary twins of a single output file and the sidecar.
    public func discard() {
        file?.discard()
        sidecar?.discard()
        virtualCamera?.close()
    }
}
