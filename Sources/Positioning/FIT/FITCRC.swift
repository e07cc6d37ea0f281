/// The FIT protocol's 16-bit CRC (the FIT SDK's `FitCRC_Get16`: four bits at a time through a
/// 16-entry table), over a file's header and over the whole file.
enum FITCRC {
    private static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    /// The CRC of `range` of `bytes`.
    static func of(_ bytes: [UInt8], _ range: Range<Int>) -> UInt16 {
        var crc: UInt16 = 0
        for index in range {
            let byte = UInt16(bytes[index])
            var step = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ step ^ table[Int(byte & 0xF)]
            step = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ step ^ table[Int((byte >> 4) & 0xF)]
        }
        return crc
    }
}
