import CText

/// Characters of a line that HarfBuzz shapes together: one embedding level (one direction), one
/// script and one face. A line is cut into runs wherever one of the three changes; the runs are
/// shaped in logical order and placed in visual order (``BidiLevels/visualOrder(of:)``).
struct TextRun {
    /// Indices into the line's scalars.
    var range: Range<Int>
    /// The bidi embedding level: odd is right to left.
    var level: UInt8
    /// The script, as HarfBuzz names it (Common and Inherited characters take their neighbours').
    var script: hb_script_t
    /// The face the run is drawn in, sized.
    var face: FontLibrary.SizedFace

    /// HarfBuzz's direction for the run's level.
    var direction: hb_direction_t { level % 2 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR }
}
