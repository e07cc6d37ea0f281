import CText

/// The Unicode bidirectional algorithm (UAX #9) for one line, by FriBidi: each character's
/// embedding level, odd for right to left. The paragraph's direction is its first strong
/// character's (a Hebrew name is right to left, a Latin name with a Hebrew word left to right);
/// brackets pair (rule N0) and trailing spaces take the paragraph's level (L1), as FriBidi does.
enum BidiLevels {
    /// The levels of `scalars`, one each; all 0 (left to right) when FriBidi fails, which it does
    /// only when it cannot allocate.
    static func resolve(_ scalars: [UInt32]) -> [UInt8] {
        let count = scalars.count
        // Without a right-to-left letter every level is 0 (the isolate marks around a label's
        // name included): Latin, Greek, Cyrillic, Indic and CJK labels, most of what is drawn,
        // skip the algorithm and its four arrays.
        guard count > 0, scalars.contains(where: isRightToLeftBlock) else { return [UInt8](repeating: 0, count: count) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var direction = arcapture_fribidi_par_on
        let resolved = scalars.withUnsafeBufferPointer { text -> Bool in
            guard let base = text.baseAddress else { return false }
            fribidi_get_bidi_types(base, FriBidiStrIndex(count), &types)
            fribidi_get_bracket_types(base, FriBidiStrIndex(count), types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(count), &direction, &levels)
                != 0
        }
        guard resolved else { return [UInt8](repeating: 0, count: count) }
        return levels.map { UInt8(clamping: Int($0)) }
    }

    /// Whether `scalar` is in a block of right-to-left scripts (Hebrew, Arabic, Syriac, Thaana,
    /// N'Ko and their presentation forms, and the historic ones above U+10800).
    static func isRightToLeftBlock(_ scalar: UInt32) -> Bool {
        (0x0590...0x08FF).contains(scalar) || (0xFB1D...0xFDFF).contains(scalar) || (0xFE70...0xFEFF).contains(scalar)
            || (0x10800...0x10FFF).contains(scalar) || (0x1E800...0x1EFFF).contains(scalar)
    }

    /// The visual order of runs at `levels` (logical order in, indices out, left to right): rule
    /// L2, from the highest level down to the lowest odd one, reverses every stretch of runs at that
    /// level or above.
    static func visualOrder(of levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 % 2 == 1 }).min() else { return order }
        var level = highest
        while level >= lowestOdd {
            var start = 0
            while start < order.count {
                guard levels[order[start]] >= level else {
                    start += 1
                    continue
                }
                var end = start
                while end < order.count && levels[order[end]] >= level { end += 1 }
                order[start..<end].reverse()
                start = end
            }
            if level == 0 { break }
            level -= 1
        }
        return order
    }
}
