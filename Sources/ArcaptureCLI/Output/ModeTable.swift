import CaptureKit
import Foundation

/// `check --all-formats`' table: one line per advertised mode, with its result and figures.
enum ModeTable {
    /// A mode as the table and the notes name it: `MJPG 1920x1080@30`.
    static func name(_ mode: CaptureMode) -> String {
        "\(mode.pixelFormat) \(mode.size)" + (mode.framesPerSecond.map { "@" + FrameIntervalText.rate($0) } ?? "")
    }

    /// The table, headed by its counts.
    static func render(_ section: CheckReport.ModesSection) -> String {
        var text =
            "modes (--all-formats): \(section.tried) of \(section.advertised) advertised tried, \(section.framesPerMode) frames each\n"
        text += "  " + "FORMAT".padding(to: 8) + "SIZE".padding(to: 11) + "FPS".padding(to: 7)
        text += "RESULT".padding(to: 10) + "FIRST FRAME".padding(to: 13) + "MEASURED\n"
        for mode in section.modes {
            var line = "  " + mode.pixelFormat.padding(to: 8) + "\(mode.width)x\(mode.height)".padding(to: 11)
            line += (mode.fpsAdvertised.value.map(FrameIntervalText.rate) ?? "-").padding(to: 7)
            line += mode.result.replacingOccurrences(of: "_", with: " ").uppercased().padding(to: 10)
            line += (mode.timeToFirstFrameMs.value.map { String(format: "%.1f ms", $0) } ?? "-").padding(to: 13)
            line += mode.fpsMeasured.value.map { FrameIntervalText.rate($0) + " fps" } ?? "-"
            if let problem = mode.problem.value { line += "  " + problem }
            text += line + "\n"
        }
        return text
    }
}
