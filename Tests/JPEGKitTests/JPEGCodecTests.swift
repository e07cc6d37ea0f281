import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import JPEGKit

@Suite("JPEG codec (libjpeg-turbo)")
struct JPEGCodecTests {
    /// A smooth test image: luma and chroma gradients with a bright square, at any size and layout.
    static func gradient(width: Int, height: Int, subsampling: ChromaSubsampling) -> YCbCrImage {
        var image = YCbCrImage(width: width, height: height, subsampling: subsampling)
        for y in 0..<height {
            for x in 0..<width {
                let inSquare = (width / 4..<width / 2).contains(x) && (height / 4..<height / 2).contains(y)
                image.planes[0][x, y] = inSquare ? 235 : UInt8(16 + (x * 200) / max(width - 1, 1))
            }
        }
        for index in image.planes.indices.dropFirst() {
            let plane = image.planes[index]
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    image.planes[index][x, y] = UInt8(
                        64 + (index == 1 ? x * 128 / max(plane.width, 1) : y * 128 / max(plane.height, 1)))
                }
            }
        }
        return image
    }

    /// The largest absolute difference between two planes of the same size.
    static func maxDifference(_ a: YCbCrImage.Plane, _ b: YCbCrImage.Plane) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width { worst = max(worst, abs(Int(a[x, y]) - Int(b[x, y]))) }
        }
        return worst
    }

    /// The mean absolute difference between two planes of the same size.
    static func meanDifference(_ a: YCbCrImage.Plane, _ b: YCbCrImage.Plane) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width { total += abs(Int(a[x, y]) - Int(b[x, y])) }
        }
        return Double(total) / Double(a.width * a.height)
    }

    @Test(
        "encode then decode keeps the layout and the picture",
        arguments: [ChromaSubsampling.s444, .s422, .s420, .gray], [(640, 480), (641, 479), (17, 9)])
    func roundTrip(subsampling: ChromaSubsampling, size: (Int, Int)) throws {
        let image = Self.gradient(width: size.0, height: size.1, subsampling: subsampling)
        let jpeg = try JPEGEncoder().encode(image, quality: 95)
        #expect(jpeg.prefix(2) == [0xFF, 0xD8])
        #expect(JPEGStructure.problem(in: jpeg) == nil)
        let decoded = try JPEGDecoder().decode(jpeg)
        #expect((decoded.width, decoded.height, decoded.subsampling) == (size.0, size.1, subsampling))
        #expect(decoded.planes.count == subsampling.planeCount)
        for (original, roundTripped) in zip(image.planes, decoded.planes) {
            #expect((roundTripped.width, roundTripped.height) == (original.width, original.height))
            #expect(Self.meanDifference(original, roundTripped) < 2.5)
        }
    }

    @Test("a lower quality gives a smaller file")
    func quality() throws {
        let image = Self.gradient(width: 320, height: 240, subsampling: .s420)
        let encoder = try JPEGEncoder()
        let high = try encoder.encode(image, quality: 95)
        let low = try encoder.encode(image, quality: 20)
        #expect(low.count < high.count)
    }

    @Test("encoding to another subsampling resamples the chroma")
    func encodeWithSubsampling() throws {
        let image = Self.gradient(width: 64, height: 48, subsampling: .s444)
        let jpeg = try JPEGEncoder().encode(image, quality: 95, subsampling: .s420)
        let decoded = try JPEGDecoder().decode(jpeg)
        #expect(decoded.subsampling == .s420)
        #expect((decoded.planes[1].width, decoded.planes[1].height) == (32, 24))
    }

    @Test("one decoder and one encoder serve frames of different sizes in turn")
    func handleReuse() throws {
        let decoder = try JPEGDecoder()
        let encoder = try JPEGEncoder()
        var image = YCbCrImage(width: 1, height: 1, subsampling: .gray)
        for (width, height, layout) in [(320, 240, ChromaSubsampling.s422), (64, 64, .s420), (320, 240, .s422)] {
            let jpeg = try encoder.encode(Self.gradient(width: width, height: height, subsampling: layout), quality: 90)
            try jpeg.withUnsafeBytes { try decoder.decode($0, into: &image) }
            #expect((image.width, image.height, image.subsampling) == (width, height, layout))
        }
    }

    @Test("a real webcam frame without Huffman tables decodes at its own 4:2:2 layout")
    func webcamFrame() throws {
        let frame = try Fixtures.webcamFrame()
        let header = try frame.withUnsafeBytes { try JPEGDecoder().readHeader($0) }
        #expect(header == JPEGHeader(width: 640, height: 480, subsampling: .s422))
        let image = try JPEGDecoder().decode(frame)
        #expect(image.planes.map(\.width) == [640, 320, 320])
        #expect(image.planes.map(\.height) == [480, 480, 480])
    }

    @Test("truncated, damaged and foreign data throw instead of exiting", arguments: [0, 1, 2, 3])
    func corrupt(kind: Int) throws {
        let frame = try Fixtures.webcamFrame()
        let data: [UInt8]
        switch kind {
        case 0: data = Array(frame.prefix(frame.count * 2 / 3))  // truncated scan
        case 1: data = Array(frame.prefix(300))  // cut inside the headers
        case 2: data = Array("not a jpeg at all, just some text that is long enough".utf8)
        default:
            var damaged = frame
            damaged[frame.count / 2] = 0xFF  // a stray restart marker inside the scan (bits flipped in transit)
            damaged[frame.count / 2 + 1] = 0xD3
            data = damaged
        }
        #expect(throws: JPEGError.self) { _ = try JPEGDecoder().decode(data) }
    }

    @Test("an independent decoder (ffmpeg) reads what the encoder writes")
    func independentDecoder() async throws {
        let image = Self.gradient(width: 96, height: 64, subsampling: .s422)
        let jpeg = try JPEGEncoder().encode(image, quality: 95)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arcapture-jpeg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.jpg")
        let output = directory.appendingPathComponent("out.yuv")
        try Data(jpeg).write(to: input)
        let ffmpeg = try await ProcessRunner.run(
            tool: "ffmpeg",
            ["-loglevel", "error", "-i", input.path, "-f", "rawvideo", "-pix_fmt", "yuvj422p", output.path],
            install: "bash scripts/install-deps")
        #expect(ffmpeg.status == 0, "\(ffmpeg.stderr)")
        let raw = [UInt8](try Data(contentsOf: output))
        #expect(raw.count == 96 * 64 * 2)
        var decoded = YCbCrImage(width: 96, height: 64, subsampling: .s422)
        #expect(decoded.planes[0].bytes.count == 96 * 64, "an even size needs no luma padding")
        decoded.planes[0].bytes = Array(raw[0..<(96 * 64)])
        decoded.planes[1].bytes = Array(raw[(96 * 64)..<(96 * 64 * 3 / 2)])
        decoded.planes[2].bytes = Array(raw[(96 * 64 * 3 / 2)...])
        for index in 0..<3 {
            #expect(Self.maxDifference(image.planes[index], decoded.planes[index]) <= 12)
            #expect(Self.meanDifference(image.planes[index], decoded.planes[index]) < 2.5)
        }
    }

    @Test("odd sizes pad the luma buffer to whole chroma blocks, as libjpeg-turbo needs")
    func padding() {
        let image = YCbCrImage(width: 641, height: 479, subsampling: .s420)
        #expect((image.planes[0].stride, image.planes[0].allocatedRows) == (642, 480))
        #expect((image.planes[1].width, image.planes[1].height) == (321, 240))
        let wide = YCbCrImage(width: 641, height: 479, subsampling: .s411)
        #expect((wide.planes[0].stride, wide.planes[0].allocatedRows) == (644, 479))
    }

    @Test("chroma resampling averages when resolution drops and repeats when it rises")
    func resampling() {
        var image = YCbCrImage(width: 4, height: 4, subsampling: .s422)
        // Cb rows: 10 30 / 50 70 / 90 110 / 130 150
        image.planes[1].bytes = [10, 30, 50, 70, 90, 110, 130, 150]
        let quarter = image.resampled(to: .s420)
        #expect(quarter.planes[1].bytes == [30, 50, 110, 130])
        let full = image.resampled(to: .s444)
        #expect(full.planes[1].bytes.prefix(8) == [10, 10, 30, 30, 50, 50, 70, 70])
        #expect(image.resampled(to: .gray).planes.count == 1)
        let odd = YCbCrImage(width: 5, height: 3, subsampling: .s444).resampled(to: .s420)
        #expect((odd.planes[1].width, odd.planes[1].height) == (3, 2))
    }
}

@Suite("JPEG structure check")
struct JPEGStructureTests {
    static let minimal = [0xFF, 0xD8] + [UInt8](repeating: 0x11, count: 200) + [0xFF, 0xD9]

    @Test("whole frames pass, with or without zero padding after the end marker")
    func whole() {
        #expect(JPEGStructure.problem(in: Self.minimal) == nil)
        #expect(JPEGStructure.problem(in: Self.minimal + [0, 0, 0]) == nil)
    }

    @Test("damaged frames are named")
    func damaged() {
        #expect(JPEGStructure.problem(in: Array(Self.minimal.prefix(100))) == .tooSmall(100))
        #expect(JPEGStructure.problem(in: Array(Self.minimal.dropLast(2))) == .missingEndMarker)
        #expect(JPEGStructure.problem(in: [0x00] + Self.minimal.dropFirst()) == .missingStartMarker)
        #expect(JPEGStructure.problem(in: [UInt8](repeating: 0, count: 300)) == .missingStartMarker)
    }
}
