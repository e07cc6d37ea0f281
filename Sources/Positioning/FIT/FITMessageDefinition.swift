/// A FIT definition message: how the data messages of one local message type are laid out until
/// the type is defined again.
struct FITMessageDefinition {
    /// One field: its number in the global message, its size in bytes, and its base type.
    struct Field {
        var number: UInt8
        var size: Int
        var baseType: UInt8
        /// Its offset from the start of the data message's content.
        var offset: Int
    }

    /// The global message number (20: `record`, 0: `file_id`).
    var global: UInt16
    /// Whether multi-byte values are big-endian (the definition's architecture byte).
    var bigEndian: Bool
    /// The fields, in order.
    var fields: [Field]
    /// The size of a data message's content: the fields' and the developer fields' bytes.
    var size: Int

    /// The field numbered `number`, if the message has it.
    func field(_ number: UInt8) -> Field? { fields.first { $0.number == number } }

    /// The unsigned value of `field` in the data message whose content starts at `start`: nil when
    /// its size is not `size` bytes (a field written with another size than the profile's, which
    /// some devices do) or it holds the base type's "invalid" value (all ones; for signed types,
    /// the largest positive).
    func unsigned(_ field: Field?, in bytes: [UInt8], at start: Int, size: Int) -> UInt64? {
        guard let field, field.size == size else { return nil }
        var value: UInt64 = 0
        for index in 0..<size {
            let byte = UInt64(bytes[start + field.offset + (bigEndian ? index : size - 1 - index)])
            value = value << 8 | byte
        }
        let allOnes: UInt64 = size == 8 ? .max : (1 << (UInt64(size) * 8)) - 1
        let signed =
            field.baseType & 0x1F == 0x01 || field.baseType & 0x1F == 0x03 || field.baseType & 0x1F == 0x05
            || field.baseType & 0x1F == 0x0E
        guard value != (signed ? allOnes >> 1 : allOnes) else { return nil }
        // The `z` types mark invalid with zero.
        if [0x0A, 0x0B, 0x0C, 0x10].contains(field.baseType & 0x1F), value == 0 { return nil }
        return value
    }

    /// The signed 32-bit value of `field` (a position in semicircles), nil when invalid.
    func signed32(_ field: Field?, in bytes: [UInt8], at start: Int) -> Int32? {
        unsigned(field, in: bytes, at: start, size: 4).map { Int32(bitPattern: UInt32(truncatingIfNeeded: $0)) }
    }
}
