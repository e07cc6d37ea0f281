import ArcaptureCore
internal import CLibJPEG
import Glibc

/// The C shim's encoder (`arcj_compress`) with one output buffer reused for every frame (the shim
/// grows it when a frame needs more). Not thread-safe: one per encoder or splicer.
final class LibJPEGCompressor {
    private var output: UnsafeMutablePointer<UInt8>?
    private var capacity: UInt = 0

    deinit { free(output) }

    /// Encodes `image` by `settings`, each plane read `sizes[i]` samples wide and high (its last
    /// column and row repeated out to whole blocks).
    func compress(_ image: YCbCrImage, settings: arcj_compress_settings, sizes: [(width: Int, height: Int)])
        throws(JPEGError) -> [UInt8]
    {
        var settings = settings
        var strides = [Int32](repeating: 0, count: 3)
        var widths = [Int32](repeating: 1, count: 3)
        var heights = [Int32](repeating: 1, count: 3)
        for (index, plane) in image.planes.enumerated() {
            strides[index] = Int32(plane.stride)
            widths[index] = Int32(sizes[index].width)
            heights[index] = Int32(sizes[index].height)
        }
        var message = [CChar](repeating: 0, count: 256)
        var size: UInt = 0
        let status = image.withPlaneReadPointers { planes in
            arcj_compress(
                &settings, UnsafeRawPointer(planes).assumingMemoryBound(to: UnsafePointer<UInt8>?.self), strides,
                widths, heights, &output, &capacity, &size, &message, message.count)
        }
        guard status == 0, let output else {
            throw .encodingFailed(
                String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
