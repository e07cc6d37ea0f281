import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage

/// Video files read through FFmpeg's libraries, checked against the ffmpeg and ffprobe programs
/// (the same libraries, driven independently): the real GoPro clip, a variable-rate file, damage.
@Suite("Video files as footage")
struct VideoFootageTests {
    static let clip = PackagePaths.sample("video/max-heromode.mp4")

    /// Every frame the reader gives, with its presentation time and the first frame's planes.
    private func readAll(_ path: String) throws -> (reader: FootageReader, times: [Double?], first: YCbCrImage?) {
        let reader = try FootageReader(path: path)
        var times: [Double?] = []
        var first: YCbCrImage?
        while var frame = reader.next() {
            times.append(frame.presentationTime)
            if let planes = frame.takePlanes() {
                if first == nil { first = planes } else { reader.pool.give(planes) }
            }
        }
        return (reader, times, first)
    }

    @Test("the GoPro clip: 315 frames at ffprobe's times, decoded to the very bytes ffmpeg decodes, full range")
    func goProClip() async throws {
        let (reader, times, first) = try readAll(Self.clip)
        #expect(reader.kind == .video)
        let video = try #require(reader.video)
        #expect(video.width == 848 && video.height == 480 && video.subsampling == .s420)
        #expect(video.isFullRange, "GoPro writes yuvj420p")
        #expect(abs((video.framesPerSecond ?? 0) - 30000 / 1001) < 1e-9)
        let probe = try await ProcessRunner.run(
            tool: "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", Self.clip],
            install: "apt-get install ffmpeg")
        let expected = probe.stdout.split(separator: "\n").compactMap { Double($0) }
        #expect(expected.count == 315)
        #expect(times.count == expected.count)
        #expect(zip(times, expected).allSatisfy { abs(($0 ?? -1) - $1) < 1e-6 }, "presentation times as ffprobe's")
        // Frame 0 decoded by the ffmpeg program, as raw planes.
        let directory = try PackagePaths.temporaryDirectory("video-footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = directory.appendingPathComponent("frame0.yuv")
        let decode = try await ProcessRunner.run(
            tool: "ffmpeg",
            ["-v", "error", "-i", Self.clip, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuvj420p", raw.path],
            install: "apt-get install ffmpeg")
        #expect(decode.status == 0, "\(decode.stderr)")
        let bytes = [UInt8](try Data(contentsOf: raw))
        let image = try #require(first)
        var offset = 0
        for plane in image.planes {
            for row in 0..<plane.height {
                let ours = plane.bytes[(row * plane.stride)..<(row * plane.stride + plane.width)]
                let theirs = bytes[(offset + row * plane.width)..<(offset + (row + 1) * plane.width)]
                guard ours.elementsEqual(theirs) else {
                    Issue.record("plane \(plane.width)x\(plane.height) row \(row) differs from ffmpeg's")
                    return
                }
            }
            offset += plane.width * plane.height
        }
        #expect(offset == bytes.count)
    }

    /// Hands the frame's planes back to `pool` (their only reference then), and says where their
    /// samples are.
    private static func giveBack(_ frame: inout FootageFrame, to pool: FrameBufferPool) -> [UnsafePointer<UInt8>?]? {
        guard let planes = frame.takePlanes() else { return nil }
        let addresses = planes.planes.map { plane in plane.bytes.withUnsafeBufferPointer { $0.baseAddress } }
        pool.give(planes)
        return addresses
    }

    @Test("a frame handed back to the pool is decoded into again, not copied (no new planes per frame)")
    func poolReuse() throws {
        let reader = try FootageReader(path: Self.clip)
        var frame = try #require(reader.next())
        let given = try #require(Self.giveBack(&frame, to: reader.pool))
        var next = try #require(reader.next())
        let retaken = next.takePlanes()
        let reused = try #require(retaken)
        let decoded = reused.planes.map { plane in plane.bytes.withUnsafeBufferPointer { $0.baseAddress } }
        // A copy of a plane kept while its samples were written made each write copy the whole
        // plane into a fresh allocation: the pool's memory was never decoded into.
        #expect(decoded == given)
        #expect(reused.planes[0].bytes.contains { $0 != 0 }, "the second frame was decoded into them")
    }

    @Test("a variable frame rate keeps its timing: each frame's presentation time as the file has it")
    func variableFrameRate() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("vfr.mkv")
        // Ten frames 0.1 s apart, then five 0.25 s apart.
        let make = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i",
                "testsrc=size=160x120:rate=10,settb=1/1000,setpts='if(lt(N,10),N/10,1+(N-10)/4)/TB'", "-frames:v", "15",
                "-fps_mode", "vfr", "-c:v", "libx264", "-pix_fmt", "yuv420p", file.path,
            ], install: "apt-get install ffmpeg")
        #expect(make.status == 0, "\(make.stderr)")
        let (reader, times, _) = try readAll(file.path)
        let steady: [Double] = (0..<10).map { Double($0) / 10 }
        let slower: [Double] = (0..<5).map { 1 + Double($0) / 4 }
        let expected = steady + slower
        #expect(times.count == 15)
        #expect(zip(times, expected).allSatisfy { abs(($0 ?? -1) - $1) < 0.002 }, "\(times)")
        #expect(reader.video?.isFullRange == false, "x264's yuv420p is limited range")
    }

    @Test("a file cut short, one with no video, one in a pixel format not drawn on: refused, naming the file")
    func refused() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = directory.appendingPathComponent("cut.mp4")
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.clip))
        try whole.prefix(whole.count / 2).write(to: cut)
        #expect {
            try FootageReader(path: cut.path)
        } throws: {
            "\($0)"
                == "\(cut.path): not a video file FFmpeg can read: moov atom not found (Invalid data found when processing input)"
        }
        let audio = directory.appendingPathComponent("audio.mp4")
        _ = try await ProcessRunner.run(
            tool: "ffmpeg", ["-v", "error", "-i", Self.clip, "-map", "0:a", "-c", "copy", audio.path],
            install: "apt-get install ffmpeg")
        #expect {
            try FootageReader(path: audio.path)
        } throws: { "\($0)".hasPrefix("\(audio.path): no video stream (its streams: audio aac") }
        let twelveBit = directory.appendingPathComponent("twelve-bit.mkv")
        let make = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=5", "-frames:v", "2", "-c:v", "ffv1",
                "-pix_fmt", "yuv420p12le", twelveBit.path,
            ], install: "apt-get install ffmpeg")
        #expect(make.status == 0, "\(make.stderr)")
        #expect {
            try FootageReader(path: twelveBit.path)
        } throws: {
            "\($0)".contains(
                "pixel format yuv420p12le, which arcapture does not draw on yet (8-bit or 10-bit YUV 4:2:0, 4:2:2, 4:4:4, NV12 or grey)"
            )
        }
    }

    @Test(
        "10-bit video (H.265 as recent action cameras record it, FFV1) is drawn on in 8 bits, NV12 and NV21 split: as ffmpeg converts them",
        arguments: [
            ("libx265", "yuv420p10le", "yuv420p", 1), ("ffv1", "yuv420p10le", "yuv420p", 1),
            ("ffv1", "yuv422p10le", "yuv422p", 1), ("ffv1", "yuv444p10le", "yuv444p", 1),
            ("rawvideo", "nv12", "yuv420p", 0), ("rawvideo", "nv21", "yuv420p", 0),
        ])
    func deeperAndInterleaved(codec: String, format: String, planar: String, tolerance: Int) async throws {
        let directory = try PackagePaths.temporaryDirectory("video-formats")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = directory.appendingPathComponent("input.mkv").path
        let raw = directory.appendingPathComponent("planes.yuv").path
        let (width, height) = (96, 64)
        let make = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=5", "-frames:v", "3",
                "-pix_fmt", format, "-c:v", codec, video,
            ] + (codec == "libx265" ? ["-x265-params", "log-level=error"] : []), install: "apt-get install ffmpeg")
        #expect(make.status == 0, "\(make.stderr)")
        // The ffmpeg program's own conversion to 8-bit planes is the reference.
        let convert = try await ProcessRunner.run(
            tool: "ffmpeg", ["-v", "error", "-i", video, "-f", "rawvideo", "-pix_fmt", planar, raw],
            install: "apt-get install ffmpeg")
        #expect(convert.status == 0, "\(convert.stderr)")
        let expected = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let reader = try FootageReader(path: video)
        var frames: [YCbCrImage] = []
        while var frame = reader.next() { if let planes = frame.takePlanes() { frames.append(planes) } }
        #expect(frames.count == 3)
        var offset = 0
        var largest = 0
        for image in frames {
            #expect(image.width == width && image.height == height)
            for plane in image.planes {
                for row in 0..<plane.height {
                    for column in 0..<plane.width where offset < expected.count {
                        largest = max(
                            largest, abs(Int(plane.bytes[row * plane.stride + column]) - Int(expected[offset])))
                        offset += 1
                    }
                }
            }
        }
        #expect(offset == expected.count, "the planes hold as many samples as ffmpeg's")
        #expect(largest <= tolerance, "a sample \(largest) levels from ffmpeg's")
    }

    /// Every frame's time and planes, as one list of strings and bytes.
    private func everything(_ path: String, decoderThreads: Int) throws -> (threads: Int?, frames: [String]) {
        let reader = try FootageReader(path: path, decoderThreads: decoderThreads)
        var frames: [String] = []
        while var frame = reader.next() {
            guard let image = frame.takePlanes() else { continue }
            let samples = image.planes.map { plane in
                (0..<plane.height).flatMap { row in
                    plane.bytes[(row * plane.stride)..<(row * plane.stride + plane.width)]
                }
            }
            frames.append("\(frame.presentationTime ?? -1) \(samples.hashValue) \(samples.map(\.count))")
            reader.pool.give(image)
        }
        return (reader.decoderThreads, frames)
    }

    @Test(
        "the decoder's threads as asked (one, two, or libavcodec's choice), the same frames from each",
        arguments: [1, 2])
    func decoderThreads(threads: Int) throws {
        let chosen = try everything(Self.clip, decoderThreads: 0)
        let asked = try everything(Self.clip, decoderThreads: threads)
        #expect(asked.threads == threads)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(
            chosen.threads ?? 0 >= min(cores, 2),
            "libavcodec left to choose decodes with a thread per core or more, not \(chosen.threads ?? 0)")
        #expect(asked.frames.count == 315)
        #expect(asked.frames == chosen.frames, "every frame's time and samples alike")
        #expect(try FootageReader(path: PackagePaths.sample("frames")).decoderThreads == nil, "a folder has no decoder")
    }
}
