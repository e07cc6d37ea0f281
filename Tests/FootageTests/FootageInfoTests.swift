import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage
@testable import JPEGKit

@Suite("Footage timing: probing, EXIF times, MJPEG splitting, the footage clock")
struct FootageInfoTests {
    private var webcamFrame: [UInt8] {
        get throws {
            try Fixtures.webcamFrame()
        }
    }

    private var nokiaPhoto: [UInt8] {
        get throws {
            Array(
                try Data(
                    contentsOf: URL(fileURLWithPath: PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg"))))
        }
    }

    @Test("EXIF DateTimeOriginal with OffsetTimeOriginal is an exact instant (a phone photo)")
    func exifTime() throws {
        // The Nokia 8.3 photo: DateTimeOriginal 2022:08:14 14:12:31, OffsetTimeOriginal +03:00.
        let time = try #require(EXIFReader.captureTime(inJPEG: try nokiaPhoto))
        #expect(time.date == UTCTime.parse("2022-08-14T11:12:31Z"))
        #expect(time.source == .exifOffset("+03:00"))
        #expect(EXIFReader.captureTime(inJPEG: try webcamFrame) == nil)
        // A damaged EXIF block gives nil, never a crash: cut the photo inside its APP1.
        #expect(EXIFReader.captureTime(inJPEG: try nokiaPhoto.prefix(100)) == nil)
    }

    /// The pieces `splitter` finds in `stream`, from the start to the first that is cut short.
    private static func split(_ stream: [UInt8], with splitter: inout MJPEGSplitter) -> [MJPEGSplitter.Piece] {
        var pieces: [MJPEGSplitter.Piece] = []
        stream.withUnsafeBytes { bytes in
            var offset = 0
            while let piece = splitter.next(in: bytes, from: offset) {
                pieces.append(piece)
                if case .image(let range) = piece { offset = range.upperBound } else { break }
            }
        }
        return pieces
    }

    @Test("MJPEG frames are split on their structure: an embedded thumbnail does not split a frame")
    func splitter() throws {
        let frame = try webcamFrame
        // A frame carrying a whole JPEG (with its own SOI and EOI) inside an APP1 segment.
        let payload = Array("Exif\0\0".utf8) + frame
        let app1 = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        let withThumbnail = [0xFF, 0xD8] + app1 + frame.dropFirst(2)
        let stream = frame + [0x00, 0x11] + withThumbnail + frame + Array(frame.prefix(500))
        var splitter = MJPEGSplitter()
        let pieces = Self.split(stream, with: &splitter)
        let images = pieces.compactMap { if case .image(let range) = $0 { range.count } else { nil } }
        #expect(images == [frame.count, withThumbnail.count, frame.count])
        #expect(pieces.last == .truncated(start: frame.count * 2 + 2 + withThumbnail.count))
        #expect(splitter.skippedBytes == 2)
    }

    @Test("entropy-coded data: stuffed FF 00 and restart markers do not end an image; a fill FF before EOI does not")
    func entropyCodedData() {
        // SOI, SOS (length 2), data with FF 00 and RST3, a fill byte, EOI; twice, then a cut one.
        let image: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD3, 0x56, 0xFF, 0xFF, 0xD9,
        ]
        let stream = image + image + Array(image.prefix(12))
        var splitter = MJPEGSplitter()
        let pieces = Self.split(stream, with: &splitter)
        #expect(pieces == [.image(0..<16), .image(16..<32), .truncated(start: 32)])
    }

    @Test("an MJPEG file: frames counted, the first frame's EXIF time found, a cut last frame noted")
    func mjpegFile() throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("clip.mjpg")
        let stream = try nokiaPhoto + webcamFrame + webcamFrame + Array(try webcamFrame.prefix(1000))
        try Data(stream).write(to: path)
        let info = try FootageInfo.probe(path.path)
        #expect(info.kind == .mjpeg && info.frameCount == 3 && info.framesPerSecond == nil)
        #expect(info.metadataStart?.date == UTCTime.parse("2022-08-14T11:12:31Z"))
        #expect(info.notes == ["the frame at byte \(stream.count - 1000) is cut short; it is not counted"])
    }

    @Test("a Y4M file: frames counted through FRAME lines (with parameters), rate from the header")
    func y4mFile() throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("clip.y4m")
        // 4x2 pixels, 4:2:2: 8 luma + 2 × 4 chroma bytes = 16 bytes a frame.
        var bytes = Array("YUV4MPEG2 W4 H2 F30000:1001 Ip A1:1 C422 XYSCSS=422\n".utf8)
        bytes += Array("FRAME\n".utf8) + [UInt8](repeating: 1, count: 16)
        bytes += Array("FRAME Ixyz\n".utf8) + [UInt8](repeating: 2, count: 16)
        bytes += Array("FRAME\n".utf8) + [UInt8](repeating: 3, count: 10)
        try Data(bytes).write(to: path)
        let info = try FootageInfo.probe(path.path)
        #expect(info.kind == .y4m && info.frameCount == 2)
        #expect(abs((info.framesPerSecond ?? 0) - 30000.0 / 1001) < 1e-12)
        #expect(info.width == 4 && info.height == 2)
        #expect(info.notes == ["frame 2 is cut short (the file ends 6 bytes early)"])
        #expect(
            throws: InputFileError.malformed(
                file: path.path, location: "line 1", problem: "the header has no valid W and H")
        ) {
            try Data("YUV4MPEG2 W0 H2\n".utf8).write(to: path)
            _ = try FootageInfo.probe(path.path)
        }
    }

    @Test("a folder of JPEGs: counted in name order, the first file's EXIF time")
    func folder() throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(try nokiaPhoto).write(to: directory.appendingPathComponent("0001.jpg"))
        try Data(try webcamFrame).write(to: directory.appendingPathComponent("0002.JPG"))
        try Data("notes".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let info = try FootageInfo.probe(directory.path)
        #expect(info.kind == .jpegFolder && info.frameCount == 2)
        #expect(info.metadataStart?.source == .exifOffset("+03:00"))
    }

    @Test("frame time = start + index / fps × speed + offset")
    func clock() {
        let start = Date(timeIntervalSince1970: 1000)
        let clock = FootageClock(start: start, framesPerSecond: 25, offset: -2, speed: 10)
        #expect(clock.time(ofFrame: 0) == Date(timeIntervalSince1970: 998))
        // Frame 50 is 2 s into the footage, 20 s of real time at 10×.
        #expect(clock.time(ofFrame: 50) == Date(timeIntervalSince1970: 1018))
    }
}
