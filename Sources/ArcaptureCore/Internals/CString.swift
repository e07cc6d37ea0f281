/// Reads a NUL-terminated, fixed-size C character array (imported by Swift as a tuple) as UTF-8.
///
/// Driver strings such as `v4l2_capability.card` fill their array without a terminator when they
/// are exactly as long as it, so reading stops at the first NUL or at the array's end.
package func stringFromCArray<Tuple>(_ array: Tuple) -> String {
    withUnsafeBytes(of: array) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
