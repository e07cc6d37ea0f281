import Foundation

/// The human-readable `arcapture check` report: one line per check with its verdict and figures.
enum CheckReportText {
    static func render(_ report: CheckReport) -> String {
        var text = "arcapture check: \(report.device)"
        if let info = report.deviceInfo.value { text += " (\(info.card), \(info.driver), \(info.busInfo))" }
        text += "\n"
        for check in report.checks {
            let verdict = check.status.rawValue.uppercased().padding(to: 6)
            text += "  \(verdict)\(check.name.padding(to: 12))\(check.detail)\n"
            for note in check.notes { text += "                    \(note)\n" }
        }
        if let modes = report.modes.value { text += ModeTable.render(modes) }
        let passed = report.checks.filter { $0.status == .pass }.count
        let failed = report.checks.filter { $0.status == .fail }.count
        text += "result: \(report.result.uppercased()) (\(passed) passed, \(failed) failed"
        let skipped = report.checks.count - passed - failed
        if skipped > 0 { text += ", \(skipped) skipped" }
        text += ") in \(String(format: "%.1f", report.durationS)) s\n"
        return text
    }
}
