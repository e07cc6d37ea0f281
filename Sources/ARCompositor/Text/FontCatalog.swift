import ArcaptureCore
import CText
import Foundation

/// fontconfig for the whole process: finds font files by name and by the characters they cover.
///
/// The configuration is loaded once, on first use, and shared by every text renderer. Loading it
/// parses some sixty XML files (about 2.3 ms, measured here), and a footage run opens a renderer per
/// text size on every worker: when each renderer loaded its own, a two-worker run spent ~16 ms of
/// its start-up in fontconfig. Answers are kept too, so a second renderer asks fontconfig nothing.
/// Thread-safe: calls into fontconfig are made under one lock.
final class FontCatalog: Sendable {
    /// The process's catalog.
    static let shared = FontCatalog()

    private struct State {
        /// fontconfig's configuration; nil until first used (and when fontconfig fails to load).
        var config: OpaquePointer?
        var loaded = false
        var files: [String: (String, String?)] = [:]
        var coverage: [UInt64: String?] = [:]
    }

    private let state = Locked(State())

    /// The file for `name`, and the family used instead when fontconfig had nothing by that name
    /// (it always answers with something, so `NoSuchFont` would silently be DejaVu Sans).
    ///
    /// `name` is a font file when it looks like a path (it has a `/` or a font file's extension) or
    /// names a file that exists; else a fontconfig pattern (`DejaVu Sans`, `Noto Sans:bold`).
    func file(forName name: String) throws(FontError) -> (file: String, substitute: String?) {
        if Self.isFile(name) {
            guard FileManager.default.fileExists(atPath: name) else {
                throw FontError(font: name, problem: "no such font file", isMissing: true)
            }
            guard FileManager.default.isReadableFile(atPath: name) else {
                throw FontError(font: name, problem: "the font file cannot be read")
            }
            return (name, nil)
        }
        let found: Result<(String, String?), FontError> = state.withLock { state in
            if let file = state.files[name] { return .success(file) }
            guard
                let pattern = name.withCString({
                    FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self))
                })
            else { return .failure(FontError(font: name, problem: "not a fontconfig pattern")) }
            defer { FcPatternDestroy(pattern) }
            let asked = Self.family(of: pattern)
            guard let (file, family, _) = Self.match(pattern, in: &state) else {
                return .failure(FontError(font: name, problem: "fontconfig found no font", isMissing: true))
            }
            // A generic family (sans-serif, monospace…) stands for whichever font fontconfig picks.
            let substitute = asked.flatMap { asked in
                Self.genericFamilies.contains(asked.lowercased())
                    ? nil : family.map { $0.lowercased() == asked.lowercased() ? nil : $0 } ?? nil
            }
            state.files[name] = (file, substitute)
            return .success((file, substitute))
        }
        return try found.get()
    }

    /// Names fontconfig's configuration turns into a font of its choosing (CSS's and its own).
    private static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "ui-sans-serif", "ui-serif",
        "ui-monospace", "cursive", "fantasy", "emoji", "math",
    ]

    /// Whether `name` means a file rather than a fontconfig pattern.
    private static func isFile(_ name: String) -> Bool {
        let extensions = ["ttf", "otf", "ttc", "otc", "pfb", "pfa", "woff", "woff2", "pcf", "bdf"]
        if name.contains("/") || extensions.contains((name as NSString).pathExtension.lowercased()) { return true }
        return FileManager.default.fileExists(atPath: name)
    }

    /// The first family a pattern names, if any.
    private static func family(of pattern: OpaquePointer) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, "family", 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
    }

    /// A font file that covers `scalar`, or nil when fontconfig knows none. With `color`, a
    /// colour font is asked for first (an emoji in emoji presentation), then any.
    func file(covering scalar: Unicode.Scalar, color: Bool = false) -> String? {
        state.withLock { state in
            let key = UInt64(scalar.value) | (color ? 1 << 32 : 0)
            if let known = state.coverage[key] { return known }
            var file: String?
            if color { file = Self.match(covering: scalar, color: true, in: &state) }
            if file == nil { file = Self.match(covering: scalar, color: false, in: &state) }
            state.coverage[key] = .some(file)
            return file
        }
    }

    /// fontconfig's best font for `scalar` (a colour one with `color`), if it covers it.
    private static func match(covering scalar: Unicode.Scalar, color: Bool, in state: inout State) -> String? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        guard let characters = FcCharSetCreate() else { return nil }
        defer { FcCharSetDestroy(characters) }
        FcCharSetAddChar(characters, FcChar32(scalar.value))
        FcPatternAddCharSet(pattern, "charset", characters)
        if color { FcPatternAddBool(pattern, "color", FcBool(FcTrue)) }
        guard let found = match(pattern, in: &state, mustCover: scalar) else { return nil }
        return !color || found.isColor ? found.file : nil
    }

    /// fontconfig's best match for `pattern` (which it completes with its substitutions): its file
    /// and family.
    private static func match(
        _ pattern: OpaquePointer, in state: inout State, mustCover scalar: Unicode.Scalar? = nil
    ) -> (file: String, family: String?, isColor: Bool)? {
        if !state.loaded {
            state.config = FcInitLoadConfigAndFonts()
            state.loaded = true
        }
        guard let config = state.config else { return nil }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        if let scalar {
            var covered: OpaquePointer?
            guard FcPatternGetCharSet(matched, "charset", 0, &covered) == FcResultMatch,
                FcCharSetHasChar(covered, FcChar32(scalar.value)) != 0
            else { return nil }
        }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(matched, "file", 0, &file) == FcResultMatch, let file else { return nil }
        var color = FcBool(FcFalse)
        let isColor = FcPatternGetBool(matched, "color", 0, &color) == FcResultMatch && color != FcBool(FcFalse)
        return (
            String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), family(of: matched), isColor
        )
    }
}
