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

    /// The highest frame number among the files already there that this template names (0 when
    /// there are none, or when the template has no `%n`): a run started again continues its
    /// numbering after it, rather than writing its frames over the last run's.
    ///
    /// The counter is looked for in the file names of the folder `now`'s frames go to (with a
    /// folder per day, `%Y%m%d/%4n.jpg`, today's: each day's numbering starts at 1). Other
    /// conversions in the file name match any text.
    public func highestExistingCounter(now: Date = Date()) -> Int {
        guard conversions.contains("n") else { return 0 }
        let resolved = name(counter: 0, date: now)
        let folder = (resolved as NSString).deletingLastPathComponent
        let namePattern = (pattern as NSString).lastPathComponent
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)
        else { return 0 }
        return files.reduce(0) { highest, file in max(highest, Self.counter(in: file, namePattern: namePattern) ?? 0) }
    }

    /// The `%n` counter in `file`, when `file` is a name `namePattern` makes; nil otherwise.
    /// Matched by a small backtracking scan: literal text exactly, `%n` one or more digits, any
    /// other conversion (adjacent ones as one) one or more characters. Places already found not to
    /// match are remembered, so a folder of thousands of long names costs each name at most
    /// pieces × length² steps, never the exponential worst case of naive backtracking.
    static func counter(in file: String, namePattern: String) -> Int? {
        enum Piece: Equatable {
            case literal(Character)
            case counter, anything
        }
        var pieces: [Piece] = []
        var characters = Array(namePattern)[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                pieces.append(.literal(character))
                continue
            }
            while let next = characters.first, next.isNumber { characters.removeFirst() }
            switch characters.popFirst() {
            case "n": pieces.append(.counter)
            case "%": pieces.append(.literal("%"))
            case nil: pieces.append(.literal("%"))
            default: if pieces.last != .anything { pieces.append(.anything) }
            }
        }
        let text = Array(file)
        // Whether the rest matches depends only on where it starts, not on the counter found.
        var failed: Set<Int> = []
        func match(_ piece: Int, _ position: Int, _ found: Int?) -> Int?? {
            guard piece < pieces.count else { return position == text.count ? .some(found) : nil }
            let place = piece * (text.count + 1) + position
            guard !failed.contains(place) else { return nil }
            let result = attempt(piece, position, found)
            if result == nil { failed.insert(place) }
            return result
        }
        func attempt(_ piece: Int, _ position: Int, _ found: Int?) -> Int?? {
            switch pieces[piece] {
            case .literal(let character):
                guard position < text.count, text[position] == character else { return nil }
                return match(piece + 1, position + 1, found)
            case .counter:
                var end = position
                while end < text.count, text[end].isASCII, text[end].isNumber, end - position < 19 { end += 1 }
                while end > position {
                    if let result = match(piece + 1, end, Int(String(text[position..<end]))) { return result }
                    end -= 1
                }
                return nil
            case .anything:
                var end = text.count
                while end > position {
                    if let result = match(piece + 1, end, found) { return result }
                    end -= 1
                }
                return nil
            }
        }
        return match(0, 0, nil) ?? nil
    }
}
