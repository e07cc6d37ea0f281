import ArcaptureCore
import Foundation
import JPEGKit

/// Reads footage frame by frame, in order: an MJPEG stream (concatenated JPEGs), a folder of JPEGs
/// (and HEIC photos) in name order, a Y4M file (4:2:0, 4:2:2, 4:4:4, mono), or a video file (MP4, MOV, MKV…: H.264,
/// H.265, MJPEG, VP9, whatever Debian's libavcodec decodes) through FFmpeg's libraries.
///
/// Files and stdin (`-`: what `ffmpeg … -f mjpeg -` or `-f yuv4mpegpipe -` write) are read through
/// a buffer holding a frame or two, so hours of footage take no more memory than a minute. Damage
/// never stops reading early without saying so: bytes between JPEGs are skipped and counted, a JPEG
/// cut short where the next begins is returned as it is (decoding finds it damaged), a JPEG cut
/// short at the end is counted in ``truncatedFrames`` with a note, a Y4M frame without its
/// `FRAME` line or cut short ends the stream with a note naming the frame. Not thread-safe: one
/// reader, one producer thread.
public final class FootageReader {
    /// What the footage is.
    public let kind: FootageInfo.Kind
    /// The Y4M header, for Y4M footage.
    public let y4mHeader: Y4MHeader?
    /// Damage found so far, each a sentence naming the frame or byte.
    public private(set) var notes: [String] = []
    /// Frames found incomplete and skipped.
    public private(set) var truncatedFrames = 0
    /// For a video read to its end: the frames its index promised and did not hold, when it held
    /// fewer (a file cut short); nil otherwise.
    public private(set) var shortfall: FootageShortfall?
    /// The presentation time of the last video frame read.
    private var lastPresentationTime: Double?
    /// Bytes between frames that were not part of any (MJPEG).
    public var skippedBytes: Int { streamSkipped }
    /// For a folder, how many JPEGs it holds (its frames, but for any that cannot be read); nil
    /// for a stream.
    public private(set) var folderFileCount: Int?
    /// Where Y4M and video frames' planes come from and, once written, go back to (see
    /// ``FrameBufferPool``).
    public let pool = FrameBufferPool(limit: 1)
    /// For a video file: its frame size, chroma layout, range, rate and stated frame count.
    public var video: VideoDescription? {
        decoder.map {
            VideoDescription(
                width: $0.width, height: $0.height, subsampling: $0.subsampling, isFullRange: $0.fullRange,
                frameRate: $0.frameRate, frameCount: chapters?.frameCount ?? $0.frameCount, codec: $0.stream.codecName)
        }
    }
    /// For a recording joined from several files, how many (1 for one file).
    public var fileCount: Int { chapters?.chapters.count ?? 1 }
    /// For a video file, the threads libavcodec decodes it with (what it chose, when left to
    /// choose); nil for other footage.
    public var decoderThreads: Int? { decoder?.threads }
    private var decoder: VideoDecoder?
    /// The files of a recording joined from several, and the one read now.
    private var chapters: VideoChapters?
    private var chapter = 0
    /// The first file's timeline, which the others continue.
    private var timelineStart: VideoDecoder.TimelineStart?
    /// The threads asked for, for each file's decoder.
    private var decoderThreadsRequested = 0
    /// Damage met in the files already read (joined recordings).
    private var earlierNotes: [String] = []
    private var earlierDamaged = 0
    private var overlapReported = false
    /// For a video file: the container's `creation_time`, when it has one (see
    /// ``FootageInfo/metadataStart``).
    public var videoCreationTime: CaptureTime? { decoder?.creationTime }

    private let path: String
    /// The path, or `stdin`, for messages.
    private let name: String
    private var index = 0
    private var files: [String] = []
    private var stream: StreamBuffer?
    private var streamSkipped = 0
    /// Converts HEIC photos' RGB to planes (made at the first).
    private var heifEncoder: JPEGEncoder?

    /// Opens `path`: a folder of `.jpg`/`.jpeg` files, a Y4M file or an MJPEG stream (by content),
    /// or `-` for a Y4M or MJPEG stream on stdin.
    ///
    /// - Parameters:
    ///   - path: the footage, or `-` for stdin.
    ///   - decoderThreads: for a video file, the threads libavcodec decodes it with; 0 (the
    ///     default) lets it pick (one per core and one more), fastest when nothing else needs the
    ///     cores. Each of its threads holds frames of its own (about 20 MB more at 1080p), so one
    ///     is better when an encoder's own threads already use the cores (see
    ///     ``decoderThreads``).
    /// - Throws: `InputFileError` when it is missing, unreadable, none of these, or its Y4M
    ///   header is wrong (with the problem).
    public init(path: String, decoderThreads: Int = 0) throws(InputFileError) {
        self.path = path
        let name = path == "-" ? "stdin" : path
        self.name = name
        if path != "-" {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .missing(file: path)
            }
            if isDirectory.boolValue {
                files = try FootageInfo.jpegNames(inFolder: path)
                folderFileCount = files.count
                kind = .jpegFolder
                y4mHeader = nil
                return
            }
        }
        // A video file: FFmpeg reads it.
        if path != "-", Self.isVideoFile(path) {
            decoder = try VideoDecoder(container: MediaContainer(path: path), threads: decoderThreads)
            kind = .video
            y4mHeader = nil
            return
        }
        // Files and stdin alike are read through a buffer that holds a frame or two: memory stays
        // bounded however long the footage (a memory-mapped file would count in the resident set).
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .unreadable(file: path, reason: String(cString: strerror(errno)))
        }
        let input = StreamBuffer(descriptor: descriptor, closesDescriptor: path != "-")
        stream = input
        _ = input.fill(9)
        if input.bytes.starts(with: Array("YUV4MPEG2".utf8)) {
            while input.bytes.prefix(1024).firstIndex(of: UInt8(ascii: "\n")) == nil, input.readMore() {}
            switch Y4MHeader.parse(input.bytes.prefix(1024)) {
            case .failure(let error): throw .malformed(file: name, location: "line 1", problem: error.problem)
            case .success(let header):
                y4mHeader = header
                input.consume(header.length)
            }
            kind = .y4m
        } else if input.bytes.starts(with: [0xFF, 0xD8]) {
            kind = .mjpeg
            y4mHeader = nil
        } else {
            throw .malformed(
                file: name, location: nil,
                problem: input.bytes.isEmpty
                    ? "nothing was read"
                    : "not footage arcapture reads (a Y4M file or stream, an MJPEG stream or a folder of JPEGs)")
        }
    }

    /// Opens a recording its camera split into video files (GoPro's chapters `GX010123.MP4`,
    /// `GX020123.MP4`, DJI's files at 4 GB), `paths` in recording order, read as one video: its
    /// frames numbered and timed on, and its other streams' packets moved, across the joins (see
    /// `VideoChapters`). One path is read as ``init(path:decoderThreads:)`` reads it.
    ///
    /// - Throws: `InputFileError` when a file is missing, unreadable, not a video, or does not
    ///   continue the first (another codec, size, or set of streams), naming it.
    public convenience init(chapters paths: [String], decoderThreads: Int = 0) throws(InputFileError) {
        guard let first = paths.first, paths.count > 1 else {
            try self.init(path: paths.first ?? "", decoderThreads: decoderThreads)
            return
        }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .missing(file: path)
            }
            guard !isDirectory.boolValue, Self.isVideoFile(path) else {
                throw .malformed(
                    file: path, location: nil,
                    problem: "not a video file: only the video files of one recording are read as one")
            }
        }
        let chapters = try VideoChapters(paths: paths)
        try self.init(path: first, decoderThreads: decoderThreads, container: chapters.chapters[0].container)
        self.chapters = chapters
        decoderThreadsRequested = decoderThreads
        timelineStart = decoder?.timelineStart
    }

    /// Opens the video file `path`, already opened as `container`.
    private init(path: String, decoderThreads: Int, container: MediaContainer) throws(InputFileError) {
        self.path = path
        name = path
        decoder = try VideoDecoder(container: container, threads: decoderThreads)
        kind = .video
        y4mHeader = nil
    }

    /// Opens one photo as a folder of one: its frame carries its name, EXIF time and geotag, as a
    /// folder's photos do, so that it is drawn on upright and written with its EXIF, as they are.
    ///
    /// - Throws: `InputFileError` when it is missing or a folder.
    public init(photo: String) throws(InputFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: photo, isDirectory: &isDirectory) else {
            throw .missing(file: photo)
        }
        guard !isDirectory.boolValue else {
            throw .unreadable(file: photo, reason: "a folder, not a photo")
        }
        let url = URL(fileURLWithPath: photo)
        path = url.deletingLastPathComponent().path
        name = photo
        files = [url.lastPathComponent]
        folderFileCount = 1
        kind = .jpegFolder
        y4mHeader = nil
    }

    /// For a video file, keeps its other streams (audio, telemetry) that `format` can hold for a
    /// video written from it, and describes them; nil for other footage. Call before the first
    /// frame is read.
    ///
    /// - Throws: `InputFileError` when FFmpeg runs out of memory.
    public func copyStreams(into format: VideoContainerFormat) throws(InputFileError) -> VideoStreamCopy? {
        try decoder?.copyStreams(into: format)
    }

    /// Whether `path` is a video file for FFmpeg to read (`MediaFileSignature/isVideoFile(_:)`).
    public static func isVideoFile(_ path: String) -> Bool { MediaFileSignature.isVideoFile(path) }

    /// Makes reading from a pipe or stdin give up when `interruption` says so while it waits for a
    /// silent writer: the footage ends there, with no frame counted damaged, so a stop request
    /// (Ctrl-C, SIGTERM) is acted on at once rather than when the writer next writes or closes.
    /// Files, folders and videos never wait on a writer; they ignore it.
    public func interruptWaiting(when interruption: @escaping @Sendable () -> Bool) {
        stream?.interruption = interruption
    }

    /// The next frame, or nil at the end (or where damage ends the stream; see ``notes``).
    public func next() -> FootageFrame? {
        while let decoder {
            guard let decoded = decoder.next(pool: pool) else {
                if nextChapter(after: decoder) { continue }
                updateDamage()
                let read = index + truncatedFrames
                let promised = chapters?.frameCount ?? decoder.frameCount
                if FootageShortfall.isShort(read: read, promised: promised) {
                    shortfall = FootageShortfall(promised: promised, read: read, endSeconds: lastPresentationTime)
                }
                return nil
            }
            updateDamage()
            lastPresentationTime = decoded.time
            var frame = FootageFrame(index: index, content: .planes(decoded.image), presentationTime: decoded.time)
            frame.presentationTimestamp = decoded.timestamp
            frame.streamCopyMark = decoded.copyMark
            index += 1
            return frame
        }
        if let stream {
            return kind == .y4m ? nextStreamedY4M(stream) : nextStreamedJPEG(stream)
        }
        return nextFile()
    }

    /// Moves on to the file that continues the recording after `finished`'s, when there is one
    /// (see ``init(chapters:decoderThreads:)``): its decoder opened, placed on the first file's
    /// timeline and copying into the same streams. A file whose decoder does not open ends the
    /// footage there, with a note.
    private func nextChapter(after finished: VideoDecoder) -> Bool {
        guard let chapters, let timelineStart, chapter + 1 < chapters.chapters.count else {
            if let chapters, !overlapReported, let copy = finished.streamCopy, copy.overlappingPackets > 0 {
                overlapReported = true
                earlierNotes.append(
                    "\(copy.overlappingPackets) packets of the copied streams that overlapped the file before them "
                        + "(\(chapters.chapters.count) files joined) were left out")
            }
            return false
        }
        chapter += 1
        let next = chapters.chapters[chapter]
        do {
            let opened = try VideoDecoder(container: next.container, threads: decoderThreadsRequested)
            opened.continueRecording(from: timelineStart, at: next.offset, copyingInto: finished.streamCopy)
            earlierNotes += finished.notes
            earlierDamaged += finished.damagedPackets
            decoder = opened
            return true
        } catch {
            chapter = chapters.chapters.count
            earlierNotes.append("\(error.description); reading stops there")
            return false
        }
    }

    /// The damage met so far, in the files already read and the one read now.
    private func updateDamage() {
        notes = earlierNotes + (decoder?.notes ?? [])
        truncatedFrames = earlierDamaged + (decoder?.damagedPackets ?? 0)
    }

    private func nextStreamedJPEG(_ stream: StreamBuffer) -> FootageFrame? {
        while true {
            var splitter = MJPEGSplitter()
            let piece = stream.bytes.withUnsafeBytes { all in
                splitter.next(in: UnsafeRawBufferPointer(rebasing: all[stream.start...]), from: 0)
            }
            // A damaged image is still a frame (its slot keeps the frames after it at their times):
            // whoever decodes it finds it damaged (no EOI), and skips and counts it.
            switch piece {
            case .image(let range), .damaged(let range): return frame(stream, range, skipped: splitter.skippedBytes)
            case .truncated, nil: break
            }
            // Incomplete so far: read on, unless the stream has ended.
            if stream.readMore() { continue }
            if stream.interrupted {
                // A stop asked for while the writer was silent: not damage, and not counted.
                stream.consume(stream.available)
                return nil
            }
            if case .truncated = piece {
                notes.append("\(name): the last frame is cut short; it is skipped")
                truncatedFrames += 1
            } else {
                streamSkipped += stream.available
            }
            stream.consume(stream.available)
            return nil
        }
    }

    /// The JPEG at `range` of the buffer's unread bytes, as the next frame.
    private func frame(_ stream: StreamBuffer, _ range: Range<Int>, skipped: Int) -> FootageFrame {
        streamSkipped += skipped
        let bytes = Array(stream.bytes[(stream.start + range.lowerBound)..<(stream.start + range.upperBound)])
        stream.consume(range.upperBound)
        let frame = FootageFrame(index: index, content: .jpeg(bytes))
        index += 1
        return frame
    }

    private func nextStreamedY4M(_ stream: StreamBuffer) -> FootageFrame? {
        guard let header = y4mHeader, header.frameByteCount != nil else { return nil }
        _ = stream.fill(6)
        guard stream.available > 0 else { return nil }
        while stream.bytes[stream.start...].prefix(256).firstIndex(of: UInt8(ascii: "\n")) == nil,
            stream.available < 256,
            stream.readMore()
        {}
        let line = stream.bytes[stream.start...].prefix(256)
        guard line.starts(with: Array("FRAME".utf8)), let newline = line.firstIndex(of: UInt8(ascii: "\n")) else {
            notes.append("\(name): frame \(index) does not start with a FRAME line; reading stops")
            stream.consume(stream.available)
            return nil
        }
        let lineLength = newline - stream.start + 1
        stream.consume(lineLength)
        // The planes are read into straight from the buffer and the descriptor: no copy of the
        // frame is kept in between.
        var image = pool.take(width: header.width, height: header.height, subsampling: Self.layout(of: header))
        var missing = 0
        for index in image.planes.indices {
            let (width, height, stride) = (
                image.planes[index].width, image.planes[index].height, image.planes[index].stride
            )
            image.planes[index].bytes.withUnsafeMutableBytes { target in
                if stride == width {  // the usual case: the plane in one read
                    missing +=
                        width * height
                        - stream.read(
                            into: UnsafeMutableRawBufferPointer(
                                rebasing: target[0..<(width * height)]))
                } else {
                    for row in 0..<height {
                        missing +=
                            width
                            - stream.read(
                                into: UnsafeMutableRawBufferPointer(
                                    rebasing: target[(row * stride)..<(row * stride + width)]))
                    }
                }
            }
        }
        guard missing == 0 else {
            if stream.interrupted { return nil }  // a stop asked for mid-frame: not damage
            notes.append("\(name): frame \(index) is cut short (it ends \(missing) bytes early)")
            truncatedFrames += 1
            return nil
        }
        let frame = FootageFrame(index: index, content: .planes(image))
        index += 1
        return frame
    }

    private func nextFile() -> FootageFrame? {
        while index < files.count {
            let name = files[index]
            let file = (path as NSString).appendingPathComponent(name)
            guard let bytes = FileManager.default.contents(atPath: file) else {
                notes.append("\(file): cannot be read; skipped")
                truncatedFrames += 1
                files.remove(at: index)
                continue
            }
            if HEIFPhoto.isHEIF(head: Array(bytes.prefix(64))) {
                do {
                    let frame = try heifFrame(bytes, file: file, name: name)
                    index += 1
                    return frame
                } catch {
                    notes.append("\(error.description); skipped")
                    truncatedFrames += 1
                    files.remove(at: index)
                    continue
                }
            }
            let jpeg = Array(bytes)
            let (time, geotag) = EXIFReader.captureTimeAndGeotag(inJPEG: jpeg)
            var frame = FootageFrame(index: index, content: .jpeg(jpeg), name: name, captureTime: time, geotag: geotag)
            frame.fieldOfView = Self.fieldOfView(ofJPEG: jpeg)
            index += 1
            return frame
        }
        return nil
    }

    /// A HEIC or HEIF photo of a folder as a frame: its picture decoded (planes, as shown), its
    /// time and geotag from its EXIF, its metadata kept for the JPEG written from it.
    private func heifFrame(_ bytes: Data, file: String, name: String) throws(InputFileError) -> FootageFrame {
        let photo = try HEIFPhoto(data: bytes, path: file)
        if heifEncoder == nil {
            do {
                heifEncoder = try JPEGEncoder()
            } catch {
                throw .malformed(file: file, location: nil, problem: "\(error)")
            }
        }
        guard let encoder = heifEncoder else {
            throw .malformed(file: file, location: nil, problem: "no libjpeg-turbo handle")
        }
        let image = try photo.decode(with: encoder)
        notes += photo.notes
        let (time, geotag) = EXIFReader.captureTimeAndGeotag(inJPEG: photo.metadataHeader)
        var frame = FootageFrame(index: index, content: .planes(image), name: name, captureTime: time, geotag: geotag)
        frame.photoMetadata = PhotoMetadata(inJPEG: photo.metadataHeader)
        // Its picture is upright already, and its EXIF says so.
        frame.fieldOfView =
            EXIFReader.lens(inJPEG: photo.metadataHeader)?
            .horizontalFieldOfView(width: photo.width, height: photo.height)?.degrees
        return frame
    }

    /// The horizontal field of view the JPEG's EXIF lens data gives across the picture as shown
    /// (turned upright by its EXIF orientation), in degrees.
    static func fieldOfView(ofJPEG jpeg: [UInt8]) -> Double? {
        guard let lens = EXIFReader.lens(inJPEG: jpeg), let size = JPEGStructure.imageSize(of: jpeg) else { return nil }
        let turned = EXIFSegment(inJPEG: jpeg)?.orientation?.swapsAxes ?? false
        let (width, height) = turned ? (Int(size.height), Int(size.width)) : (Int(size.width), Int(size.height))
        return lens.horizontalFieldOfView(width: width, height: height, turned: turned)?.degrees
    }

    /// The chroma layout a Y4M header names.
    private static func layout(of header: Y4MHeader) -> ChromaSubsampling {
        switch header.colorSpace {
        case "422": .s422
        case "444": .s444
        case "mono": .gray
        default: .s420
        }
    }
}
