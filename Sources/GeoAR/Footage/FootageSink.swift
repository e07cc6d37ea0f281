import CaptureKit
import Foundation

/// Writes frames in order to a ``FootageDestination``: single files appear whole when ``finish()``
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
    /// - Throws: ``OutputError`` when the file cannot be created.
    public init(
        destination: FootageDestination, frameRate: (numerator: Int, denominator: Int), fullRange: Bool = true,
        sidecar path: String? = nil, pool: FrameBufferPool? = nil, replacing: Bool = true
    ) throws(OutputError) {
        self.replacing = replacing
        self.pool = pool
        self.destination = destination
        self.frameRate = frameRate
        self.fullRange = fullRange
        if case .files(let template) = destination { names = FrameNameLedger(template: template) }
        // Their folders are made when missing, as a frame template's are.
        sidecar = try path.map { path throws(OutputError) in
            try AtomicFileWriter(destination: path, replacing: replacing, creatingFolders: true)
        }
        switch destination {
        case .mjpegFile(let path), .y4mFile(let path):
            file = try AtomicFileWriter(destination: path, replacing: replacing, creatingFolders: true)
        case .files(let template):
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
        written += 1
        switch output {
        case .jpeg(let jpeg):
            if case .files(let template) = destination {
                let name = template.name(counter: written, date: date)
                do {
                    try names?.claim(name)
                    try CaptureOutputWriter.writeFile(name, jpeg, replacing: replacing)
                } catch {
                    throw .output(error)
                }
            } else {
                try append(jpeg)
            }
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

    private func append(_ bytes: [UInt8]) throws(FrameWriteError) {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(FrameWriteError) in try append(buffer) } }
        try result.get()
    }

    /// Appends bytes to the single output file or stdout.
    private func append(_ buffer: UnsafeRawBufferPointer) throws(FrameWriteError) {
        switch destination {
        case .mjpegStream, .y4mStream:
            try CaptureOutputWriter.writeToStandardOutput(buffer)
        case .mjpegFile, .y4mFile:
            do {
                try file?.write(buffer)
            } catch {
                throw .output(error)
            }
        case .files:
            break  // numbered files are written whole, above
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
    /// - Throws: `OutputError`.
    public func finish() throws(OutputError) {
        try file?.commit()
        try sidecar?.commit()
    }

    /// Drops the temporary twins of a single output file and the sidecar.
    public func discard() {
        file?.discard()
        sidecar?.discard()
    }
}
