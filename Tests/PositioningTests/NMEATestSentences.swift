/// Builds NMEA sentences for tests: the checksum is computed here, independently of the decoder.
enum NMEATestSentences {
    /// `$BODY*HH` with the XOR checksum of BODY.
    static func sentence(_ body: String) -> String {
        var checksum: UInt8 = 0
        for byte in body.utf8 { checksum ^= byte }
        let hex = String(checksum, radix: 16, uppercase: true)
        return "$\(body)*\(hex.count == 1 ? "0" + hex : hex)"
    }
}
