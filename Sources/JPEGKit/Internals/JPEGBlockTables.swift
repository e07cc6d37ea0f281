internal import CLibJPEG

/// The Huffman tables of a frame's scan, prepared for the C shim's walk, index and assembly: for
/// each block of an MCU (Y blocks, then Cb, then Cr) its component and DC and AC tables, and each
/// component's DC codes.
///
/// - Important: Not thread-safe; owned by one ``JPEGSplicer``, and ``prepare(_:)`` again for each
///   frame (the pointers stay valid until then).
final class JPEGBlockTables {
    /// The prepared tables: DC 0-3, then AC 0-3.
    private let walkTables = UnsafeMutablePointer<arcj_walk_table>.allocate(capacity: 8)
    /// DC codes of tables 0-3.
    private let dcEncoders = UnsafeMutablePointer<arcj_dc_encoder>.allocate(capacity: 4)
    private(set) var dc: [UnsafePointer<arcj_walk_table>?] = []
    private(set) var ac: [UnsafePointer<arcj_walk_table>?] = []
    /// Each block's component (0-2).
    private(set) var components: [Int32] = []
    /// Each component's DC codes.
    private(set) var componentDC: [UnsafePointer<arcj_dc_encoder>?] = []

    deinit {
        walkTables.deallocate()
        dcEncoders.deallocate()
    }

    /// Prepares `scan`'s tables; a description of the first that cannot be used, or nil.
    func prepare(_ scan: JPEGRestartScan) -> String? {
        for (slot, table) in (scan.dcTables + scan.acTables).enumerated() {
            guard let table else { continue }
            var source = Self.huffman(table)
            guard arcj_walk_table_init(walkTables + slot, &source) == 0 else { return "a Huffman table is not a code" }
            if slot < 4, arcj_dc_encoder_init(dcEncoders + slot, &source) != 0 {
                return "a DC table has no code for some differences"
            }
        }
        dc = []
        ac = []
        components = []
        componentDC = []
        for (index, component) in scan.components.enumerated() {
            let blocks = scan.components.count == 1 ? 1 : component.h * component.v
            dc += Array(repeating: UnsafePointer(walkTables + component.dcTable), count: blocks)
            ac += Array(repeating: UnsafePointer(walkTables + 4 + component.acTable), count: blocks)
            components += Array(repeating: Int32(index), count: blocks)
            componentDC.append(UnsafePointer(dcEncoders + component.dcTable))
        }
        return nil
    }

    /// A table in the C library's form.
    static func huffman(_ table: JPEGRestartScan.HuffmanTable) -> arcj_huffman_table {
        var result = arcj_huffman_table()
        result.present = 1
        withUnsafeMutableBytes(of: &result.bits) { bits in
            for (i, count) in table.bits.enumerated() { bits[i] = count }
        }
        withUnsafeMutableBytes(of: &result.values) { values in
            for (i, value) in table.values.enumerated() { values[i] = value }
        }
        return result
    }
}
