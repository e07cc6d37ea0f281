import Foundation
import TestSupport
import Testing

/// `capture --output v4l2:NODE`: arcapture as a virtual camera, written to v4l2loopback in the VM
/// (Tests/VM/guest-loopback.sh) and read back by v4l2-ctl, an independent consumer.
@Suite("a virtual camera out, through v4l2loopback in a VM", .serialized, .timeLimit(.minutes(30)))
struct VividVirtualCameraTests {
    func vm() async throws -> LoopbackVM { try await LoopbackVM.shared.value }

    static let frameBytes = 640 * 480 * 2

    /// Consecutive frames of `size` bytes.
    static func frames(_ bytes: [UInt8], size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    /// The frames of a 4:2:2 full-range Y4M stream, packed as YUYV in limited range here (by this
    /// test's own arithmetic, not arcapture's): what a V4L2 consumer of the same frames reads.
    static func limitedRangeYUYV(ofY4M bytes: [UInt8]) throws -> [[UInt8]] {
        let newline = try #require(bytes.firstIndex(of: 0x0A))
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        #expect(header.contains("W640") && header.contains("H480") && header.contains("C422"), "\(header)")
        #expect(header.contains("XCOLORRANGE=FULL"))
        func luma(_ value: UInt8) -> UInt8 { UInt8(16 + (Int(value) * 219 + 127) / 255) }
        func chroma(_ value: UInt8) -> UInt8 {
            let scaled = (Int(value) - 128) * 224
            return UInt8(128 + (scaled >= 0 ? (scaled + 127) / 255 : -((127 - scaled) / 255)))
        }
        let pixels = 640 * 480
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

    /// The run that wrote to the virtual camera ended with Ctrl-C (130), and v4l2-ctl read from it.
    static func expectRun(_ vm: LoopbackVM, _ name: String, format: String) throws {
        let run = try VividCaptureTests.streamRun(vm, name)
        #expect(run.status == "130", "\(run.stderr)")
        #expect(!run.stderr.contains("warning"), "\(run.stderr)")
        #expect(String(decoding: try vm.file("\(name)-format.txt"), as: UTF8.self).hasPrefix(format))
        #expect(try VividCaptureTests.streamRun(vm, "\(name)-read").status == "0")
    }

    @Test("v4l2-ctl reads a YUYV camera's frames from the virtual camera, byte for byte")
    func passedThrough() async throws {
        let vm = try await vm()
        try Self.expectRun(vm, "vcam", format: "YUYV:640x480@10")
        let all = String(decoding: try vm.file("vcam-all.txt"), as: UTF8.self)
        #expect(all.contains("Card type        : arcapture virtual camera"), "\(all)")
        #expect(all.contains("Width/Height      : 640/480") && all.contains("'YUYV'"), "\(all)")
        let reference = Self.frames(try vm.file("vcam-reference.yuyv"), size: Self.frameBytes)
        #expect(reference.count == 3)
        #expect(Set(reference).count == 1, "vivid's frames differ: the comparison needs a still pattern")
        let read = Self.frames(try vm.file("vcam.read"), size: Self.frameBytes)
        #expect(read.count == 5)
        for (index, frame) in read.enumerated() { #expect(frame == reference.first, "frame \(index)") }
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
        let read = Self.frames(try vm.file("vcam-annotated.read"), size: Self.frameBytes)
        #expect(read.count == 3)
        for (index, frame) in read.enumerated() {
            let differing = zip(frame, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "frame \(index): \(differing) of \(Self.frameBytes) samples differ")
        }
    }

    @Test("an MJPEG camera's frames go out as MJPEG, each the camera's own JPEG with tables")
    func mjpeg() async throws {
        let vm = try await vm()
        try Self.expectRun(vm, "vcam-mjpeg", format: "MJPG:1280x720@10")
        let frames = MJPEGBytes.split(try vm.file("vcam-mjpeg.read"))
        #expect(frames.count == 5)
        let sent = Set(
            try #require(vm.feeds["good-1280x720"]).map {
                MJPEGBytes.withoutHuffmanTables(MJPEGBytes.image(in: $0.bytes))
            })
        for frame in frames {
            #expect(MJPEGBytes.hasHuffmanTables(frame))
            #expect(sent.contains(MJPEGBytes.withoutHuffmanTables(frame)), "a frame is none the camera sent")
        }
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
