import ArcaptureCore

/// When `check` calls a picture black or one flat colour, on luma 0–255 (``LumaStatistics``).
///
/// Black: a mean below 24 with a spread below 6, what a capped lens or a dark room gives (a
/// sensor's black is 0–16 plus a little noise); a dark scene with anything lit in it spreads
/// wider. Flat: a spread below 2 at any brightness, a constant picture (a sensor or driver that
/// delivers one value, a grey card filling the view). The check fails only when every frame read
/// is so, or when every frame repeats the one before byte for byte (frozen): a scene that goes
/// dark for a moment, or a camera that repeats a frame now and then, passes with a note.
enum PictureThresholds {
    static let blackMean = 24.0
    static let blackSpread = 6.0
    static let flatSpread = 2.0

    @Sendable static func isBlack(_ luma: LumaStatistics) -> Bool {
        luma.mean < blackMean && luma.spread < blackSpread
    }

    @Sendable static func isFlat(_ luma: LumaStatistics) -> Bool { luma.spread < flatSpread }
}
