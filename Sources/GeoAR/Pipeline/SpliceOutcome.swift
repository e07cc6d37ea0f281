/// How a JPEG frame that was drawn on came to be encoded, for a run's summary: spliced (only the
/// MCUs the overlay touches coded again) or decoded and encoded whole, and why.
enum SpliceOutcome: Sendable, Equatable {
    /// Spliced.
    case spliced
    /// Decoded and encoded whole although splicing was on: why (progressive, optimised Huffman
    /// tables...).
    case whole(String)
}
