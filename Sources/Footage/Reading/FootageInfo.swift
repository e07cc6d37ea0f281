import ArcaptureCore
import Foundation
import JPEGKit

/// What a recorded clip is, as far as timing goes: how many frames, at what rate, and when its
/// metadata says it started.
public struct FootageInfo: Sendable {
    /// The kinds of footage arcapture reads.
    public enum Kind: String, Sendable {
        /// A YUV4MPEG2 stream.
        case y4m
        /// Concatenated JPEGs.
        case mjpeg
        /// A folder of JPEG files, in name order.
        case jpegFolder = "jpeg-folder"
        /// A video file (MP4, MOV, MKV…), decoded by libavcodec.
        case video
    }

    /// The path, as given.
    public var path: String
    /// What it is.
    public var kind: Kind
    /// Complete frames.
    public var frameCount: Int
    /// The frame rate the file states (Y4M's header), nil when it states none.
    public var framesPerSecond: Double?
    /// Frame size, when known.
    public var width: Int?
    /// Frame height, when known.
    public var height: Int?
    /// When the first frame was taken according to the file's metadata (the first JPEG's EXIF, a
    /// GoPro video's GPS clock, a container's creation time), with where it came from.
    public var metadataStart: CaptureTime?
    /// Damage found while counting (a truncated last frame), for the report.
    public var notes: [String]

    /// Creates a description (a stream on stdin is described from its first bytes, not probed).
    public init(
        path: String, kind: Kind, frameCount: Int, framesPerSecond: Double?, width: Int?, height: Int?,
        metadataStart: CaptureTime?, notes: [String]
    ) {
        self.path = path
        self.kind = kind
        self.frameCount = frameCount
        self.framesPerSecond = framesPerSecond
        self.width = width
        self.height = height
        self.metadataStart = metadataStart
        self.notes = notes
    }

    /// Looks at `path`: a folder of `.jpg`/`.jpeg` files, a video file (MP4, MOV, MKV…), a Y4M
    /// file (by its header) or an MJPEG stream (anything starting with a JPEG SOI).
    ///
    /// - Throws: `InputFileError` when it is missing, unreadable or none of these.
    public static func probe(_ path: String) throws(InputFileError) -> FootageInfo {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .missing(file: path)
        }
        if isDirectory.boolValue { return try folder(path) }
        if FootageReader.isVideoFile(path) { return try video(path) }
        let data = try InputFile.read(path, options: .alwaysMapped)
        if data.starts(with: Array("YUV4MPEG2".utf8)) { return try y4m(data, path: path) }
        if data.starts(with: [0xFF, 0xD8]) { return mjpeg(data, path: path) }
        throw .malformed(
            file: path, location: nil,
            problem: "not footage arcapture reads (a Y4M file, an MJPEG stream or a folder of JPEGs)")
    }

    /// Describes a recording its camera split into the video files `paths`, in recording order,
    /// as one video (`FootageReader.init(chapters:decoderThreads:)` reads it so): the frames of
    /// them all, the first's rate and size, the start its joined telemetry gives, else the first's
    /// creation time. One path is described as ``probe(_:)`` describes it.
    ///
    /// - Throws: `InputFileError` when a file is missing, unreadable, not a video, or does not
    ///   continue the first.
    public static func probe(chapters paths: [String]) throws(InputFileError) -> FootageInfo {
        guard paths.count > 1 else { return try probe(paths.first ?? "") }
        for path in paths where !FootageReader.isVideoFile(path) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .missing(file: path)
            }
            throw .malformed(
                file: path, location: nil,
                problem: "not a video file: only the video files of one recording are read as one")
        }
        let chapters = try VideoChapters(paths: paths)
        return try video(chapters.chapters[0].container, frameCount: chapters.frameCount, files: paths)
    }

    /// A video file, from its container (nothing decoded): frames and rate as it states them, and
    /// its start on the telemetry's clock when it has telemetry with one (GoPro's GPMF, a DJI
    /// subtitle file beside it, what ExifTool reads), else its `creation_time`.
    private static func video(_ path: String) throws(InputFileError) -> FootageInfo {
        let container = try MediaContainer(path: path)
        return try video(container, frameCount: nil, files: [path])
    }

    /// A video whose first (or only) file is `container`, with `frameCount` frames (nil: what the
    /// container states), its telemetry read from `files`.
    private static func video(_ container: MediaContainer, frameCount: Int?, files: [String]) throws(InputFileError)
        -> FootageInfo
    {
        let decoder = try VideoDecoder(container: container)
        var notes: [String] = []
        var start: CaptureTime?
        // Telemetry arcapture reads (damage in it is an error; telemetry with no GPS is none),
        // else what ExifTool reads, if anything.
        var reading: EmbeddedTelemetry.Reading?
        do throws(InputFileError) {
            reading = try EmbeddedTelemetry.read(chapters: files)
        } catch let error
            where EmbeddedTelemetry.noGPSReason(error) != nil || !files.contains(where: EmbeddedTelemetry.hasTelemetry)
        {
            // No GPS in them, or no telemetry arcapture reads: none (nothing ExifTool reads either).
        }
        if let reading {
            start = reading.videoStart.map { CaptureTime(date: $0, source: reading.startSource) }
            notes = reading.track.warnings
        }
        // Without a GPS clock, the container's creation time (which may be local time labelled
        // UTC: the report says where the start came from, and sync shows the overlap).
        return FootageInfo(
            path: files.first ?? container.path, kind: .video, frameCount: frameCount ?? decoder.frameCount,
            framesPerSecond: decoder.frameRate.map { Double($0.numerator) / Double($0.denominator) },
            width: decoder.width, height: decoder.height, metadataStart: start ?? container.creationTime, notes: notes)
    }

    private static func y4m(_ data: Data, path: String) throws(InputFileError) -> FootageInfo {
        let header: Y4MHeader
        switch Y4MHeader.parse(data.prefix(1024)) {
        case .failure(let error): throw .malformed(file: path, location: "line 1", problem: error.problem)
        case .success(let parsed): header = parsed
        }
        // Each frame is a FRAME line (which may carry parameters) and the pixel data.
        let frameBytes = header.frameByteCount ?? 0
        var count = 0
        var notes: [String] = []
        data.withUnsafeBytes { bytes in
            var offset = header.length
            while offset < bytes.count {
                let line = bytes[offset..<min(bytes.count, offset + 256)]
                guard line.starts(with: Array("FRAME".utf8)), let newline = line.firstIndex(of: UInt8(ascii: "\n"))
                else {
                    notes.append(
                        "frame \(count) does not start with a FRAME line at byte \(offset); counting stops there")
                    return
                }
                let next = newline + 1 + frameBytes
                guard next <= bytes.count else {
                    notes.append("frame \(count) is cut short (the file ends \(next - bytes.count) bytes early)")
                    return
                }
                count += 1
                offset = next
            }
        }
        return FootageInfo(
            path: path, kind: .y4m, frameCount: count, framesPerSecond: header.framesPerSecond, width: header.width,
            height: header.height, metadataStart: nil, notes: notes)
    }

    private static func mjpeg(_ data: Data, path: String) -> FootageInfo {
        var count = 0
        var notes: [String] = []
        var firstTime: CaptureTime?
        var splitter = MJPEGSplitter()
        data.withUnsafeBytes { bytes in
            var offset = 0
            while let piece = splitter.next(in: bytes, from: offset) {
                switch piece {
                case .image(let range):
                    if count == 0 { firstTime = EXIFReader.captureTime(inJPEG: bytes[range]) }
                    count += 1
                    offset = range.upperBound
                case .damaged(let range):
                    notes.append("the frame at byte \(range.lowerBound) is cut short (the next frame's start follows)")
                    count += 1
                    offset = range.upperBound
                case .truncated(let start):
                    notes.append("the frame at byte \(start) is cut short; it is not counted")
                    offset = bytes.count
                }
            }
        }
        if splitter.skippedBytes > 0 { notes.append("\(splitter.skippedBytes) bytes between frames skipped") }
        return FootageInfo(
            path: path, kind: .mjpeg, frameCount: count, framesPerSecond: nil, width: nil, height: nil,
            metadataStart: firstTime, notes: notes)
    }

    /// The `.jpg`/`.jpeg` files in a folder, in name order (the frames of a JPEG-folder footage).
    ///
    /// - Throws: `InputFileError` when the folder cannot be listed or holds none.
    static func jpegNames(inFolder path: String) throws(InputFileError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { ["jpg", "jpeg", "heic", "heif"].contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
        } catch {
            throw .unreadable(file: path, reason: InputFile.reason(for: error, path: path))
        }
        guard !names.isEmpty else {
            throw .malformed(file: path, location: nil, problem: "no .jpg, .jpeg or .heic files")
        }
        return names
    }

    private static func folder(_ path: String) throws(InputFileError) -> FootageInfo {
        let names = try jpegNames(inFolder: path)
        let first = names[0]
        let firstPath = (path as NSString).appendingPathComponent(first)
        var head = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: firstPath)).read(upToCount: 256 * 1024)) ?? nil
        // A HEIC's EXIF is in an item of its own: libheif finds it.
        if let bytes = head, HEIFPhoto.isHEIF(head: Array(bytes.prefix(64))) {
            head = (try? HEIFPhoto(path: firstPath)).map { Data($0.metadataHeader) }
        }
        return FootageInfo(
            path: path, kind: .jpegFolder, frameCount: names.count, framesPerSecond: nil, width: nil, height: nil,
            metadataStart: head.flatMap { EXIFReader.captureTime(inJPEG: $0) }, notes: [])
    }
}
