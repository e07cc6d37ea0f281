internal import CLibJPEG

/// Unstuffed entropy-coded data with the index of its MCUs (`arcj_index_interval`), in memory kept
/// from frame to frame: a frame's intervals, or the MCUs a splicer encoded again. Intervals are
/// placed by the caller at offsets it chooses (an interval's unstuffed bytes are no more than its
/// stuffed ones, so a frame's fit at each interval's own offset plus 16 bytes of padding per
/// interval).
///
/// - Important: Not thread-safe; owned by one ``JPEGSplicer``.
final class IndexedScanData {
    private(set) var bits: UnsafeMutablePointer<UInt8>
    private(set) var entries: UnsafeMutablePointer<arcj_mcu_entry>
    private var bitsCapacity = 0
    private var entriesCapacity = 0

    init() {
        bits = .allocate(capacity: 1)
        entries = .allocate(capacity: 1)
    }

    deinit {
        bits.deallocate()
        entries.deallocate()
    }

    /// Makes room for `bytes` unstuffed bytes and `entries` MCU entries (what was held is lost).
    func reserve(bytes: Int, entries count: Int) {
        if bytes > bitsCapacity {
            bits.deallocate()
            bitsCapacity = max(bytes, bitsCapacity * 2)
            bits = .allocate(capacity: bitsCapacity)
        }
        if count > entriesCapacity {
            entries.deallocate()
            entriesCapacity = max(count, entriesCapacity * 2)
            entries = .allocate(capacity: entriesCapacity)
        }
    }

    /// Indexes `size` bytes of entropy-coded data at `data` holding `mcus` MCUs, its unstuffed
    /// bytes at `bitsOffset` (room for `size` + 16 reserved) and its `mcus` + 1 entries at
    /// `entriesOffset` (nil: the codes are only checked). Returns `arcj_index_interval`'s status
    /// (0: whole).
    func index(
        _ data: UnsafePointer<UInt8>, size: Int, mcus: Int, bitsOffset: Int, entriesOffset: Int?,
        tables: JPEGBlockTables
    ) -> Int32 {
        let entries = entriesOffset.map { self.entries + $0 }
        return tables.dc.withUnsafeBufferPointer { dc in
            tables.ac.withUnsafeBufferPointer { ac in
                tables.components.withUnsafeBufferPointer { components in
                    arcj_index_interval(
                        data, size, Int32(mcus), Int32(tables.components.count), dc.baseAddress, ac.baseAddress,
                        components.baseAddress, bits + bitsOffset, entries)
                }
            }
        }
    }

    /// The interval indexed at those offsets, for `arcj_assemble`.
    func source(bitsOffset: Int, entriesOffset: Int, mcus: Int) -> arcj_indexed {
        arcj_indexed(bits: bits + bitsOffset, entries: entries + entriesOffset, count: Int32(mcus))
    }
}
