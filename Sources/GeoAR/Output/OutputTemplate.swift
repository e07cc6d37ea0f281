import ArcaptureCore
import CaptureKit
import Foundation

/// A file name pattern for captured frames, as fswebcam and rpicam-still users write them.
///
/// strftime conversions (`%Y`, `%m`, `%d`, `%H`, `%M`, `%S`, `%j`, …) take the frame's capture time in
/// local time; two more stand for what strftime lacks:
/// - `%L`: milliseconds, three digits;
/// - `%n` or `%Wn` (W a width, such as `%4n`): the frame counter from 1, zero-padded to W digits
///   (at most 20).
///
/// `%n` is strftime's newline, useless in a file name, hence its use here.
public struct OutputTemplate: Equatable, Sendable {
    /// The pattern as given.
    public let pattern: String

    /// The widest `%Wn` counter: wider asks are cut to it.
    public static let widestCounter = 20

    /// Creates a template from a pattern such as `frames/%05n.jpg` or `lapse-%Y%m%d-%H%M%S.jpg`.
    public init(pattern: String) {
        self.pattern = pattern
    }

    /// Whether names differ from frame to frame (a counter, milliseconds or seconds).
    public var variesPerFrame: Bool { !conversions.isDisjoint(with: ["n", "L", "S", "s", "T"]) }

    /// The shortest time between two frames for which their names still differ, in seconds: nil
    /// when the name counts frames (`%n`: every name differs), 0.001 with `%L`, 1 with seconds
    /// (`%S`, `%s`, `%T`), 60 with minutes, and so on; infinity when nothing in it changes.
    ///
    /// Footage whose frames are closer together than this would give two frames one name (the
    /// second replacing the first), so it is refused before any work.
    public var timeResolution: Double? {
        let found = conversions
        if found.contains("n") { return nil }
        let steps: [(Set<Character>, Double)] = [
            (["L"], 0.001), (["S", "s", "T", "r", "X", "c"], 1), (["M", "R"], 60), (["H", "I", "k", "l"], 3600),
            (["d", "e", "j", "D", "F", "x", "a", "A", "u", "w"], 86_400),
        ]
        return steps.first { !found.isDisjoint(with: $0.0) }?.1 ?? .infinity
    }

    /// The conversions the pattern uses, by their letter (`n` for `%n` and `%4n`; `%` for `%%`),
    /// read as ``name(counter:date:)`` reads them. (A scan, not a regular expression: Foundation's
    /// regular expressions load ICU, a few milliseconds of every run's start-up.)
    private var conversions: Set<Character> {
        var found: Set<Character> = []
        var characters = pattern.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { continue }
            while let next = characters.next() {
                if next.isNumber { continue }
                found.insert(next)
                break
            }
        }
        return found
    }

    /// The name for the `counter`-th frame (from 1), captured at `date`.
    public func name(counter: Int, date: Date) -> String {
        var result = ""
        var strftimePart = ""
        var index = pattern.startIndex
        func flushStrftime() {
            guard !strftimePart.isEmpty else { return }
            result += LocalTime.format(strftimePart, date)
            strftimePart = ""
        }
        while index < pattern.endIndex {
            let character = pattern[index]
            guard character == "%", pattern.index(after: index) < pattern.endIndex else {
                strftimePart.append(character)
                index = pattern.index(after: index)
                continue
            }
            var cursor = pattern.index(after: index)
            var width = ""
            while cursor < pattern.endIndex, pattern[cursor].isNumber {
                width.append(pattern[cursor])
                cursor = pattern.index(after: cursor)
            }
            guard cursor < pattern.endIndex else {
                strftimePart += String(pattern[index...])
                break
            }
            switch pattern[cursor] {
            case "n":
                flushStrftime()
                let digits = String(counter)
                // At most 20 digits: a counter has no more than 19, and `%8888888888n` (found by
                // fuzzing) would otherwise ask for gigabytes of zeros.
                let padded = min(Int(width.prefix(3)) ?? 0, Self.widestCounter)
                result += String(repeating: "0", count: max(0, padded - digits.count)) + digits
            case "L" where width.isEmpty:
                flushStrftime()
                let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down)) % 1000
                result += String(format: "%03d", milliseconds)
            default:
                strftimePart += String(pattern[index...cursor])
            }
            index = pattern.index(after: cursor)
        }
        flushStrftime()
        return result
    }
}
