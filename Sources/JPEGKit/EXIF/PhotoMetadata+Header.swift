extension PhotoMetadata {
    /// A JPEG header (SOI, the segments, EOI) holding metadata read from another format (a HEIC's
    /// EXIF, XMP and colour profile), so that what reads a JPEG's metadata (``EXIFReader``,
    /// ``PhotoMetadata/init(inJPEG:)``) reads it, and a JPEG written from the picture keeps it.
    ///
    /// - Parameters:
    ///   - exif: the EXIF block's TIFF structure (from its byte-order mark); a block that does not
    ///     fit one segment (64 KB) is left out. Its orientation is set to 1 when `isUpright`.
    ///   - isUpright: whether the picture is already shown as it should be (HEIF's own rotation
    ///     applied), so that the EXIF orientation must not turn it again.
    ///   - xmp: an XMP packet; left out when it does not fit one segment.
    ///   - iccProfile: an ICC colour profile, split into `ICC_PROFILE` segments as ICC.1 Annex B says.
    public static func jpegHeader(exif: [UInt8]?, isUpright: Bool, xmp: [UInt8]?, iccProfile: [UInt8]?) -> [UInt8] {
        var header: [UInt8] = [0xFF, 0xD8]
        func segment(marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            let length = payload.count + 2
            return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        func append(marker: UInt8, _ payload: [UInt8]) { header += segment(marker: marker, payload) }
        if let exif, exif.count + 8 <= 65_535 {
            let block = segment(marker: 0xE1, Array("Exif\0\0".utf8) + exif)
            header += isUpright ? EXIFSegment(bytes: block)?.upright() ?? block : block
        }
        if let xmp, XMPPacket.identifier.count + xmp.count + 2 <= 65_535 {
            append(marker: 0xE1, XMPPacket.identifier + xmp)
        }
        if let iccProfile, !iccProfile.isEmpty {
            // 65,535 less the length field, the identifier (12) and the sequence and count bytes.
            let chunk = 65_535 - 2 - 14
            let count = (iccProfile.count + chunk - 1) / chunk
            if count <= 255 {
                for number in 0..<count {
                    let piece = iccProfile[(number * chunk)..<min(iccProfile.count, (number + 1) * chunk)]
                    append(marker: 0xE2, Array("ICC_PROFILE\0".utf8) + [UInt8(number + 1), UInt8(count)] + piece)
                }
            }
        }
        return header + [0xFF, 0xD9]
    }
}
