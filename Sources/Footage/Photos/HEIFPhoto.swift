import ArcaptureCore
internal import CHeif
import Foundation
import JPEGKit

/// A HEIF or HEIC photo (every iPhone's since 2017), read through libheif: the picture as it is
/// shown (HEIF's own rotation and mirroring applied, as the format says a reader must), and its
/// metadata as a JPEG header carries it (EXIF with its orientation set upright, XMP, the ICC
/// colour profile), so that what reads a JPEG's metadata reads a HEIC's, and the annotated copy,
/// written as a JPEG, keeps it.
///
/// Not thread-safe: one photo, one thread.
public final class HEIFPhoto {
    /// The picture's width as shown, in pixels.
    public let width: Int
    /// The picture's height as shown, in pixels.
    public let height: Int
    /// The metadata as a JPEG header (`PhotoMetadata.jpegHeader(exif:isUpright:xmp:iccProfile:)`).
    public let metadataHeader: [UInt8]
    /// What the JPEG written from it cannot keep (a colour profile given only as primaries),
    /// each a sentence naming the file.
    public let notes: [String]

    private let path: String
    private let context: OpaquePointer
    private let handle: OpaquePointer

    /// libheif's plugins loaded once for the process (it counts its users; this one never ends).
    private static let initialized: Bool = heif_init(nil).code == heif_error_Ok

    /// Whether `head` (a file's first 64 bytes or so) starts a HEIF image file (see
    /// `MediaFileSignature.isHEIFImage(head:)`).
    public static func isHEIF(head: [UInt8]) -> Bool { MediaFileSignature.isHEIFImage(head: head) }

    /// Opens the photo at `path` and reads its size and metadata (the picture is decoded by
    /// ``decode(with:)``).
    ///
    /// - Throws: `InputFileError`: missing or unreadable, or libheif cannot read it (its words).
    public convenience init(path: String) throws(InputFileError) {
        try self.init(data: InputFile.read(path), path: path)
    }

    /// Reads the photo in `data` (the file at `path`, for messages).
    ///
    /// - Throws: `InputFileError.malformed` with libheif's words when it cannot read it.
    public init(data: Data, path: String) throws(InputFileError) {
        self.path = path
        _ = Self.initialized
        guard let context = heif_context_alloc() else {
            throw .malformed(file: path, location: nil, problem: "libheif could not allocate a context")
        }
        // Read from a copy libheif owns: the photo's bytes need not outlive this call.
        let read = data.withUnsafeBytes { raw in
            heif_context_read_from_memory(context, raw.baseAddress, raw.count, nil)
        }
        var handle: OpaquePointer?
        let primary = read.code == heif_error_Ok ? heif_context_get_primary_image_handle(context, &handle) : read
        guard primary.code == heif_error_Ok, let handle else {
            // The message lives in the context: read before it is freed.
            let words = Self.words(primary)
            heif_context_free(context)
            throw .malformed(
                file: path, location: nil, problem: "not a HEIF image libheif can read (\(words))")
        }
        self.context = context
        self.handle = handle
        width = Int(heif_image_handle_get_width(handle))
        height = Int(heif_image_handle_get_height(handle))
        var notes: [String] = []
        let exif = Self.metadata(handle, type: "Exif").first.flatMap(Self.tiffStructure)
        let xmp = Self.metadata(handle, type: "mime", contentType: "application/rdf+xml").first
        var profile: [UInt8]?
        switch heif_image_handle_get_color_profile_type(handle) {
        case heif_color_profile_type_prof, heif_color_profile_type_rICC:
            let size = heif_image_handle_get_raw_color_profile_size(handle)
            var bytes = [UInt8](repeating: 0, count: size)
            if size > 0, heif_image_handle_get_raw_color_profile(handle, &bytes).code == heif_error_Ok {
                profile = bytes
            }
        case heif_color_profile_type_nclx:
            var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
            if heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx {
                let primaries = nclx.pointee.color_primaries.rawValue
                // 1: BT.709's primaries, sRGB's; 2: unspecified.
                if primaries != 1 && primaries != 2 {
                    notes.append(
                        "\(path): its colours are given as primaries (nclx \(primaries)), not an ICC profile; the JPEG "
                            + "written has none, so viewers take its colours for sRGB")
                }
                heif_nclx_color_profile_free(nclx)
            }
        default: break
        }
        metadataHeader = PhotoMetadata.jpegHeader(exif: exif, isUpright: true, xmp: xmp, iccProfile: profile)
        self.notes = notes
    }

    deinit {
        heif_image_handle_release(handle)
        heif_context_free(context)
    }

    /// The picture as shown, as full-range YCbCr 4:2:0 (JFIF's, as a JPEG holds it): libheif
    /// decodes it to RGB (its own conversion honours the file's matrix and range), and
    /// `encoder` turns that into planes.
    ///
    /// - Throws: `InputFileError.malformed` with libheif's or libjpeg-turbo's words.
    public func decode(with encoder: JPEGEncoder) throws(InputFileError) -> YCbCrImage {
        var image: OpaquePointer?
        let decoded = heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)
        guard decoded.code == heif_error_Ok, let image else {
            throw .malformed(file: path, location: nil, problem: "cannot be decoded (\(Self.words(decoded)))")
        }
        defer { heif_image_release(image) }
        var stride: Int32 = 0
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        guard let pixels = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), width > 0,
            height > 0
        else {
            throw .malformed(file: path, location: nil, problem: "libheif gave no RGB picture")
        }
        do {
            return try encoder.planes(
                fromRGB: UnsafeRawBufferPointer(start: pixels, count: Int(stride) * height), width: width,
                height: height, stride: Int(stride))
        } catch {
            throw .malformed(file: path, location: nil, problem: "cannot be converted (\(error))")
        }
    }

    /// The blocks of metadata of `type` (and `contentType`, when given) the picture has.
    private static func metadata(_ handle: OpaquePointer, type: String, contentType: String? = nil) -> [[UInt8]] {
        let count = heif_image_handle_get_number_of_metadata_blocks(handle, type)
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: Int(count))
        let found = heif_image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, count)
        return ids.prefix(Int(max(0, found))).compactMap { id in
            if let contentType {
                guard let given = heif_image_handle_get_metadata_content_type(handle, id),
                    String(cString: given) == contentType
                else { return nil }
            }
            let size = heif_image_handle_get_metadata_size(handle, id)
            guard size > 0, size < 16 << 20 else { return nil }
            var bytes = [UInt8](repeating: 0, count: size)
            guard heif_image_handle_get_metadata(handle, id, &bytes).code == heif_error_Ok else { return nil }
            return bytes
        }
    }

    /// The TIFF structure of a HEIF EXIF item: after a 4-byte big-endian offset to it (ISO/IEC
    /// 23008-12 A.2.1), some writers putting `Exif\0\0` first as in a JPEG; nil when no TIFF
    /// byte-order mark is where it should be.
    static func tiffStructure(_ item: [UInt8]) -> [UInt8]? {
        guard item.count > 8 else { return nil }
        let offset = Int(item[0]) << 24 | Int(item[1]) << 16 | Int(item[2]) << 8 | Int(item[3])
        var start = 4 + offset
        if start + 6 <= item.count, item[start..<(start + 6)].elementsEqual("Exif\0\0".utf8) { start += 6 }
        guard start + 8 <= item.count else { return nil }
        let mark = Array(item[start..<(start + 4)])
        guard mark == [0x49, 0x49, 0x2A, 0x00] || mark == [0x4D, 0x4D, 0x00, 0x2A] else { return nil }
        return Array(item[start...])
    }

    /// libheif's message for `error`.
    private static func words(_ error: heif_error) -> String {
        // Some of its messages end in a newline.
        (error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
