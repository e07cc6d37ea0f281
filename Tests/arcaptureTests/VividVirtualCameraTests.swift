import Foundation
import TestSupport
import Testing

@testable import ArcaptureCLI

/// `capture --output v4l2:NODE`: arcapture as a virtual camera, written to v4l2loopback in the VM
/// (Tests/VM/guest-loopback.sh) and read back by two independent consumers: v4l2-ctl, then ffmpeg
/// (the host's, run in the guest from the host's /usr), which copies the packets it reads.
@Suite("a virtual camera out, through v4l2loopback in a VM", .serialized, .timeLimit(.minutes(40)), .bootsLoopbackVM)
struct VividVirtualCameraTests {
    func vm() async throws -> LoopbackVM { try await LoopbackVM.shared.value }

    static let frameBytes = 640 * 480 * 2

    /// Consecutive frames of `size` bytes.
    static func frames(_ bytes: [UInt8], size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    /// The frames of a 4:2:2 full-range Y4M stream, packed as YUYV in limited range here (by this
    /// test's own arithmetic, not arcapture's): what a V4L2 consumer of the same frames reads.
    static func limitedRangeYUYV(ofY4M bytes: [UInt8], width: Int = 640, height: Int = 480) throws -> [[UInt8]] {
        let newline = try #require(bytes.firstIndex(of: 0x0A))
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        #expect(header.contains("W\(width)") && header.contains("H\(height)") && header.contains("C422"), "\(header)")
        #expect(header.contains("XCOLORRANGE=FULL"))
        func luma(_ value: UInt8) -> UInt8 { UInt8(16 + (Int(value) * 219 + 127) / 255) }
        func chroma(_ value: UInt8) -> UInt8 {
            let scaled = (Int(value) - 128) * 224
            return UInt8(128 + (scaled >= 0 ? (scaled + 127) / 255 : -((127 - scaled) / 255)))
        }
        let pixels = width * height
        var frames: [[UInt8]] = []
        var position = newline + 1
        while let line = bytes[position...].firstIndex(of: 0x0A), line + 1 + 2 * pixels <= bytes.count {
            let start = line + 1
            var packed = [UInt8](repeating: 0, count: 2 * pixels)
            for index in 0..<pixels { packed[2 * index] = luma(bytes[start + index]) }
            for index in 0..<(pixels / 2) {
                packed[4 * index + 1] = chroma(bytes[start + pixels + index])
                packed[4 * index + 3] = chroma(bytes[start + pixels * 3 / 2 + index])
            }
            frames.append(packed)
            position = start + 2 * pixels
        }
        return frames
    }

    /// The run that wrote to the virtual camera ended with Ctrl-C (130), and v4l2-ctl and ffmpeg
    /// read from it.
    static func expectRun(_ vm: LoopbackVM, _ name: String, format: String) throws {
        let run = try VividCaptureTests.streamRun(vm, name)
        #expect(run.status == "130", "\(run.stderr)")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
        #expect(String(decoding: try vm.file("\(name)-format.txt"), as: UTF8.self).hasPrefix(format))
        #expect(try VividCaptureTests.streamRun(vm, "\(name)-read").status == "0")
        let ffmpeg = try VividCaptureTests.streamRun(vm, "\(name)-ffmpeg")
        #expect(ffmpeg.status == "0", "\(ffmpeg.stderr)")
    }

    /// What each consumer read from the virtual camera in scenario `name` (`count` frames after
    /// the first), by consumer. ffmpeg's packets are files of their own (`NAME.ffmpeg-01` on), so
    /// its first, v4l2loopback's leftover buffer, is skipped whatever its length.
    static func reads(_ vm: LoopbackVM, _ name: String, count: Int) throws -> [(consumer: String, bytes: [UInt8])] {
        let packets = try (2...count + 1).map { try vm.file(String(format: "\(name).ffmpeg-%02d", $0)) }
        #expect((try? vm.file(String(format: "\(name).ffmpeg-%02d", count + 2))) == nil, "ffmpeg read too many")
        return [("v4l2-ctl", try vm.file("\(name).read")), ("ffmpeg", packets.flatMap { $0 })]
    }

    @Test("v4l2-ctl and ffmpeg read a YUYV camera's frames from the virtual camera, byte for byte")
    func passedThrough() async throws {
        let vm = try await vm()
        try Self.expectRun(vm, "vcam", format: "YUYV:640x480@10")
        let all = String(decoding: try vm.file("vcam-all.txt"), as: UTF8.self)
        #expect(all.contains("Card type        : arcapture virtual camera"), "\(all)")
        #expect(all.contains("Width/Height      : 640/480") && all.contains("'YUYV'"), "\(all)")
        let reference = Self.frames(try vm.file("vcam-reference.yuyv"), size: Self.frameBytes)
        #expect(reference.count == 3)
        #expect(Set(reference).count == 1, "vivid's frames differ: the comparison needs a still pattern")
        for (consumer, bytes) in try Self.reads(vm, "vcam", count: 5) {
            let read = Self.frames(bytes, size: Self.frameBytes)
            #expect(read.count == 5, "\(consumer)")
            for (index, frame) in read.enumerated() { #expect(frame == reference.first, "\(consumer): frame \(index)") }
        }
    }

    @Test("annotated frames reach the virtual camera as the same capture's Y4M, in V4L2's limited range")
    func annotated() async throws {
        let vm = try await vm()
        try Self.expectRun(vm, "vcam-annotated", format: "YUYV:640x480@10")
        #expect(try VividCaptureTests.streamRun(vm, "vcam-annotated-reference").status == "0")
        let reference = try Self.limitedRangeYUYV(ofY4M: try vm.file("vcam-annotated-reference.y4m"))
        #expect(reference.count == 3)
        let expected = try #require(reference.last)
        let plain = Self.frames(try vm.file("vcam-reference.yuyv"), size: Self.frameBytes).first
        #expect(expected != plain, "the overlay drew nothing")
        for (consumer, bytes) in try Self.reads(vm, "vcam-annotated", count: 3) {
            let read = Self.frames(bytes, size: Self.frameBytes)
            #expect(read.count == 3, "\(consumer)")
            for (index, frame) in read.enumerated() {
                let differing = zip(frame, expected).filter { $0 != $1 }.count
                #expect(
                    differing == 0, "\(consumer), frame \(index): \(differing) of \(Self.frameBytes) samples differ")
            }
        }
    }

    @Test("an MJPEG camera's frames go out as MJPEG, each the camera's own JPEG with tables")
    func mjpeg() async throws {
        let vm = try await vm()
        try Self.expectRun(vm, "vcam-mjpeg", format: "MJPG:1280x720@10")
        let sent = Set(
            try #require(vm.feeds["good-1280x720"]).map {
                MJPEGBytes.withoutHuffmanTables(MJPEGBytes.image(in: $0.bytes))
            })
        for (consumer, bytes) in try Self.reads(vm, "vcam-mjpeg", count: 5) {
            let frames = MJPEGBytes.split(bytes)
            #expect(frames.count == 5, "\(consumer)")
            for frame in frames {
                #expect(MJPEGBytes.hasHuffmanTables(frame), "\(consumer)")
                #expect(
                    sent.contains(MJPEGBytes.withoutHuffmanTables(frame)),
                    "\(consumer): a frame is none the camera sent")
            }
        }
    }

    @Test("annotated footage plays on the virtual camera at its own rate, each frame as the Y4M of the same run")
    func footage() async throws {
        let vm = try await vm()
        let run = try VividCaptureTests.streamRun(vm, "vcam-footage")
        #expect(run.status == "0", "\(run.stderr)")
        #expect(run.stderr.contains("48 frames in, 48 out (48 annotated"), "\(run.stderr)")
        #expect(String(decoding: try vm.file("vcam-footage-format.txt"), as: UTF8.self).hasPrefix("YUYV:960x400@8"))
        #expect(try VividCaptureTests.streamRun(vm, "vcam-footage-read").status == "0")
        // 48 frames at 8 fps take 5.875 s from the first to the last, however fast the drawing.
        let seconds =
            Double(
                String(decoding: try vm.file("vcam-footage-seconds.txt"), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(seconds >= 5.875, "\(seconds) s")
        #expect(try VividCaptureTests.streamRun(vm, "vcam-footage-reference").status == "0")
        let reference = try Self.limitedRangeYUYV(
            ofY4M: try vm.file("vcam-footage-reference.y4m"), width: 960, height: 400)
        #expect(reference.count == 48)
        let read = Self.frames(try vm.file("vcam-footage.read"), size: 960 * 400 * 2)
        #expect(read.count == 8)
        // Each frame read is one of the footage's, in order (a slow reader may skip some).
        let indices = read.map { frame in reference.firstIndex(of: frame) }
        #expect(!indices.contains(nil), "frames read that are none of the footage's: \(indices)")
        let found = indices.compactMap { $0 }
        #expect(found == found.sorted() && Set(found).count == found.count, "\(found)")
    }

    /// Without pacing, the guest draws these six frames in about 1.3 s.
    @Test("footage written to a virtual camera keeps its rate: six frames at 2 fps take at least 2.5 s")
    func paced() async throws {
        let vm = try await vm()
        let run = try vm.scenario("vcam-paced")
        #expect(run.status == 0, "\(run.stderr)")
        let summary = try #require(
            run.stderr.split(separator: "\n").first { $0.hasPrefix("annotate: 6 frames in, 6 out") }, "\(run.stderr)")
        // "annotate: … skipped; 2.6 s, 2.3 fps, 1 worker": the pipeline's own time.
        let timing = summary.split(separator: ";").last?.split(separator: ",").first
        let seconds = timing.flatMap {
            Double($0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " s", with: ""))
        }
        #expect((seconds ?? 0) >= 2.5, "\(summary)")
    }

    @Test(
        "a node another program writes to, one that is no output, a missing node and a wrong format are refused with the fix",
        arguments: [
            ("vcam-busy", Int32(75), "another program is writing to it"),
            ("vcam-not-output", Int32(69), "is not a video output; load v4l2loopback"),
            ("vcam-missing", Int32(69), "no such device; load v4l2loopback"),
            ("vcam-bad-format", Int32(64), "--format-out for a virtual camera must be yuyv or mjpeg"),
        ])
    func refused(name: String, status: Int32, message: String) async throws {
        let vm = try await vm()
        let run = try vm.scenario(name)
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
