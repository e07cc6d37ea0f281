import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage
@testable import JPEGKit

/// Footage read frame by frame: Y4M made by ffmpeg (an independent writer) and compared plane by
/// plane with ffmpeg's own raw output, MJPEG streams with noise and a cut-short end, folders.
@Suite("Footage reader")
struct FootageReaderTests {
    static let frame = PackagePaths.sample("frames/lund-640x480.jpg")
    static let photo = PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg")

    @Test("Y4M frames are ffmpeg's planes, byte for byte", arguments: ["yuv420p", "yuv422p", "yuv444p"])
    func y4m(format: String) async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let y4m = directory.appendingPathComponent("clip.y4m").path
        let raw = directory.appendingPathComponent("clip.raw").path
        // 3 frames of 321x241 (odd: chroma sizes round up), each a different crop.
        let filter = "crop=321:241:'n*40':'n*30',format=\(format)"
        _ = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-loop", "1", "-i", Self.frame, "-vf", filter, "-frames:v", "3", "-strict", "-1", "-y",
                y4m,
            ],
            install: "apt-get install ffmpeg")
        _ = try await ProcessRunner.run(
            tool: "ffmpeg", ["-v", "error", "-i", y4m, "-f", "rawvideo", "-pix_fmt", format, "-y", raw],
            install: "apt-get install ffmpeg")
        let expected = Array(try Data(contentsOf: URL(fileURLWithPath: raw)))
        let reader = try FootageReader(path: y4m)
        #expect(reader.kind == .y4m)
        // Each frame goes back to the reader's pool once read, as the writer does: the next is read
        // into the same planes, and must still be exactly ffmpeg's.
        var frames = 0
        var bytes: [UInt8] = []
        var storage: Set<Int> = []
        while let frame = reader.next() {
            guard case .planes(let image) = frame.content else { continue }
            frames += 1
            for plane in image.planes {
                for row in 0..<plane.height {
                    bytes += plane.bytes[(row * plane.stride)..<(row * plane.stride + plane.width)]
                }
            }
            storage.insert(image.planes[0].bytes.withUnsafeBytes { Int(bitPattern: $0.baseAddress) })
            reader.pool.give(image)
        }
        #expect(frames == 3)
        #expect(reader.notes.isEmpty)
        #expect(storage.count == 1, "the second and third frames reuse the first one's planes")
        #expect(bytes.count == expected.count)
        #expect(bytes == expected)
    }

    @Test("an MJPEG stream gives each JPEG whole; noise between frames is skipped, a cut-short end is noted")
    func mjpeg() throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let jpegs = [
            Array(try Data(contentsOf: URL(fileURLWithPath: Self.frame))),
            Array(try Data(contentsOf: URL(fileURLWithPath: Self.photo))),
        ]
        let stream = jpegs[0] + [0x00, 0x11, 0x22] + jpegs[1] + jpegs[0] + Array(jpegs[1].prefix(5000))
        let path = directory.appendingPathComponent("clip.mjpeg").path
        try Data(stream).write(to: URL(fileURLWithPath: path))
        let reader = try FootageReader(path: path)
        var read: [[UInt8]] = []
        while let frame = reader.next() {
            if case .jpeg(let bytes) = frame.content { read.append(bytes) }
        }
        #expect(read == [jpegs[0], jpegs[1], jpegs[0]])
        #expect(reader.skippedBytes == 3)
        #expect(reader.truncatedFrames == 1)
        #expect(reader.notes.first?.contains("cut short") == true)
    }

    @Test(
        "a frame cut short mid-stream is its own damaged frame: the frames after it are whole and keep their places"
    )
    func cutMidStream() throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = Array(try Data(contentsOf: URL(fileURLWithPath: Self.frame)))
        // Cut inside the entropy-coded data, and inside the headers (where a marker belongs, text).
        let inData = Array(whole.prefix(whole.count / 2))
        let inHeaders = Array(whole.prefix(20)) + Array("garbage".utf8)
        let stream = whole + inData + whole + inHeaders + whole
        let path = directory.appendingPathComponent("clip.mjpeg").path
        try Data(stream).write(to: URL(fileURLWithPath: path))
        let reader = try FootageReader(path: path)
        var read: [(index: Int, bytes: [UInt8])] = []
        while let frame = reader.next() {
            if case .jpeg(let bytes) = frame.content { read.append((frame.index, bytes)) }
        }
        #expect(read.map(\.index) == [0, 1, 2, 3, 4])
        #expect(read.map(\.bytes) == [whole, inData, whole, inHeaders, whole])
        #expect(JPEGStructure.problem(in: read[1].bytes) == .missingEndMarker)
        #expect(reader.truncatedFrames == 0 && reader.skippedBytes == 0)
        // Probing counts the same five frame slots.
        let info = try FootageInfo.probe(path)
        #expect(info.frameCount == 5)
        #expect(info.notes.filter { $0.contains("cut short") }.count == 2)
    }

    @Test("a folder gives its JPEGs in name order with their EXIF times; other files are ignored")
    func folder() throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = FileManager.default
        try manager.copyItem(atPath: Self.photo, toPath: directory.appendingPathComponent("b-0002.JPG").path)
        try manager.copyItem(atPath: Self.frame, toPath: directory.appendingPathComponent("a-0001.jpg").path)
        try Data("notes".utf8).write(to: directory.appendingPathComponent("readme.txt"))
        let reader = try FootageReader(path: directory.path)
        let first = try #require(reader.next())
        let second = try #require(reader.next())
        #expect(reader.next() == nil)
        #expect(first.name == "a-0001.jpg" && second.name == "b-0002.JPG")
        #expect(first.index == 0 && second.index == 1)
        #expect(second.captureTime.map { UTCTime.format($0.date) } == "2022-08-14T11:12:31.000Z")  // 14:12:31+03:00
        let empty = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: InputFileError.self) { try FootageReader(path: empty.path) }
    }

    @Test("a Y4M header error names the problem; a frame without FRAME ends reading with a note")
    func y4mDamage() throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.y4m").path
        try Data("YUV4MPEG2 W4 H2 F25:1 C411\n".utf8).write(to: URL(fileURLWithPath: bad))
        #expect {
            try FootageReader(path: bad)
        } throws: { error in
            (error as? InputFileError)?.description.contains("colour space 'C411'") == true
        }
        // ffmpeg's 8-bit tags are read whole (an earlier parser cut 'C420jpeg' at its 'p');
        // deeper samples are refused by name.
        #expect((try? Y4MHeader.parse(Array("YUV4MPEG2 W4 H2 C420jpeg\n".utf8)).get())?.colorSpace == "420jpeg")
        #expect((try? Y4MHeader.parse(Array("YUV4MPEG2 W4 H2 C420paldv XYSCSS=420PALDV\n".utf8)).get()) != nil)
        #expect((try? Y4MHeader.parse(Array("YUV4MPEG2 W4 H2 C420p10\n".utf8)).get()) == nil)
        #expect(
            (try? Y4MHeader.parse(Array("YUV4MPEG2 W4 H2 C444 XCOLORRANGE=FULL\n".utf8)).get())?.isFullRange == true)
        #expect((try? Y4MHeader.parse(Array("YUV4MPEG2 W4 H2 C444\n".utf8)).get())?.isFullRange == false)
        // A side no picture has is refused by name, before the frame's byte count could overflow
        // (W and H of 10 digits each once trapped in the multiplication; found by fuzzing).
        let huge = Y4MHeader.parse(Array("YUV4MPEG2 W9999999999 H9999999999 C444\n".utf8))
        #expect(throws: Y4MHeaderError.self) { try huge.get() }
        if case .failure(let error) = huge { #expect(error.problem.contains("larger than arcapture reads")) }
        #expect((try? Y4MHeader.parse(Array("YUV4MPEG2 W32768 H32768 C444\n".utf8)).get())?.frameByteCount == 3 << 30)
        let damaged = directory.appendingPathComponent("damaged.y4m").path
        var bytes = Array("YUV4MPEG2 W4 H2 F25:1 C444\nFRAME\n".utf8) + [UInt8](repeating: 7, count: 24)
        bytes += Array("JUNK\n".utf8) + [UInt8](repeating: 9, count: 24)
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let reader = try FootageReader(path: damaged)
        #expect(reader.next() != nil)
        #expect(reader.next() == nil)
        #expect(reader.notes.first?.contains("frame 1 does not start with a FRAME line") == true)

        // A frame cut short (a 4x2 4:2:0 frame is 8 + 2 + 2 bytes; the second has 5): the first
        // frame whole, then a note saying how much is missing.
        let cut = directory.appendingPathComponent("cut.y4m")
        let frame = Array("FRAME\n".utf8) + [UInt8](repeating: 50, count: 12)
        try Data(Array("YUV4MPEG2 W4 H2 F25:1 C420jpeg\n".utf8) + frame + frame.prefix(11)).write(to: cut)
        let fromFile = try FootageReader(path: cut.path)
        guard case .planes(let image) = fromFile.next()?.content else {
            Issue.record("the first frame was not read")
            return
        }
        #expect(image.planes[0].bytes.prefix(4) == [50, 50, 50, 50])
        #expect(fromFile.next() == nil)
        #expect(fromFile.truncatedFrames == 1)
        #expect(fromFile.notes == ["\(cut.path): frame 1 is cut short (it ends 7 bytes early)"])
    }
}

@Suite("EXIF geotags")
struct GeotagTests {
    @Test(
        "GPS position, altitude and image direction of real photos, as their sources document them",
        arguments: [
            ("photos/lund_01.jpg", 55.698167, 13.195389, 37.0 as Double?, 179.2 as Double?, false),
            ("photos/lund_21.jpg", 55.699211, 13.194678, 35, 329.8, false),
            ("photos/helsinki_west_harbour_nokia83.jpg", 60.146706, 24.906772, nil, 56, true),
        ])
    func geotag(
        file: String, latitude: Double, longitude: Double, altitude: Double?, direction: Double?, magnetic: Bool
    ) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample(file)))
        let tag = try #require(EXIFReader.geotag(inJPEG: bytes))
        #expect(abs(tag.latitude - latitude) < 0.000_001)
        #expect(abs(tag.longitude - longitude) < 0.000_001)
        if let altitude {
            #expect(abs((tag.altitudeMeanSeaLevel ?? -1000) - altitude) < 0.5)
        } else {
            #expect(tag.altitudeMeanSeaLevel == nil)
        }
        #expect(abs((tag.imageDirection ?? -1) - (direction ?? -1)) < 0.05)
        #expect(tag.directionIsMagnetic == magnetic)
    }

    @Test("no geotag in a frame without GPS; a damaged EXIF block reads as none, never a crash")
    func missingOrDamaged() throws {
        let frame = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("frames/lund-640x480.jpg")))
        #expect(EXIFReader.geotag(inJPEG: frame) == nil)
        var photo = Array(try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("photos/lund_01.jpg"))))
        // Scramble the EXIF block's middle (offsets then point anywhere).
        var state: UInt64 = 7
        for index in 40..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            photo[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        _ = EXIFReader.geotag(inJPEG: photo)
        _ = EXIFReader.captureTime(inJPEG: photo)
    }
}
