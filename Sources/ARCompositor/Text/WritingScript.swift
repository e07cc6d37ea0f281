import CText

/// A Unicode script by its English name, for messages: "no installed font draws Thai".
enum WritingScript {
    /// The script of `scalar` as HarfBuzz's Unicode data gives it.
    static func of(_ scalar: UInt32) -> hb_script_t {
        hb_unicode_script(hb_unicode_funcs_get_default(), hb_codepoint_t(scalar))
    }

    /// Whether `script` is no script of its own (spaces, digits, punctuation, combining marks),
    /// taking its neighbours' in a run.
    static func isShared(_ script: hb_script_t) -> Bool {
        script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
    }

    /// `script`'s English name (Unicode's, from its ISO 15924 code); the code itself for the scripts
    /// not listed.
    static func name(of script: hb_script_t) -> String {
        let code = code(of: script)
        return names[code] ?? code
    }

    /// The Debian package whose fonts cover `script`: Noto's CJK set for Chinese, Japanese and
    /// Korean, Noto's core set for the others it has.
    static func package(for script: hb_script_t) -> String {
        let cjk: Set<String> = ["Hani", "Hira", "Kana", "Hang", "Bopo"]
        return cjk.contains(code(of: script)) ? "fonts-noto-cjk" : "fonts-noto-core"
    }

    /// The ISO 15924 code of `script` ("Thai", "Hang").
    static func code(of script: hb_script_t) -> String {
        let tag = hb_script_to_iso15924_tag(script)
        return String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
    }

    /// The scripts OpenStreetMap's names are most often in, and the others with a Noto font in
    /// Debian's fonts-noto-core or fonts-noto-cjk.
    private static let names: [String: String] = [
        "Latn": "Latin", "Grek": "Greek", "Cyrl": "Cyrillic", "Armn": "Armenian", "Geor": "Georgian",
        "Hebr": "Hebrew", "Arab": "Arabic", "Syrc": "Syriac", "Thaa": "Thaana", "Nkoo": "N'Ko",
        "Deva": "Devanagari", "Beng": "Bengali", "Guru": "Gurmukhi", "Gujr": "Gujarati", "Orya": "Oriya",
        "Taml": "Tamil", "Telu": "Telugu", "Knda": "Kannada", "Mlym": "Malayalam", "Sinh": "Sinhala",
        "Thai": "Thai", "Laoo": "Lao", "Tibt": "Tibetan", "Mymr": "Myanmar", "Khmr": "Khmer",
        "Ethi": "Ethiopic", "Cher": "Cherokee", "Cans": "Canadian Aboriginal", "Mong": "Mongolian",
        "Hani": "Han (Chinese characters)", "Hira": "Hiragana", "Kana": "Katakana", "Hang": "Hangul",
        "Bopo": "Bopomofo", "Yiii": "Yi", "Tfng": "Tifinagh", "Zyyy": "symbols", "Zinh": "combining marks",
        "Zzzz": "unassigned characters",
    ]
}
