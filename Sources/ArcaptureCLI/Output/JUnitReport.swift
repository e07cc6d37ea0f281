import Foundation

/// Renders a check report as JUnit XML, the format CI systems (GitLab, Jenkins, GitHub Actions
/// reporters) display as test results: one test case per check.
enum JUnitReport {
    static func render(_ report: CheckReport, timestamp: Date) -> String {
        let failures = report.checks.filter { $0.status == .fail }.count
        let skipped = report.checks.filter { $0.status == .skip }.count
        let time = String(format: "%.3f", report.durationS)
        let suite = "arcapture check \(report.device)"
        let formatter = ISO8601DateFormatter()
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"arcapture check\" tests=\"\(report.checks.count)\" failures=\"\(failures)\" "
        xml += "errors=\"0\" skipped=\"\(skipped)\" time=\"\(time)\">\n"
        xml += "  <testsuite name=\"\(escape(suite))\" tests=\"\(report.checks.count)\" failures=\"\(failures)\" "
        xml +=
            "errors=\"0\" skipped=\"\(skipped)\" time=\"\(time)\" timestamp=\"\(formatter.string(from: timestamp))\">\n"
        xml += "    <properties>\n"
        var properties = [
            ("device", report.device), ("result", report.result), ("exit_status", "\(report.exitStatus)"),
        ]
        if let info = report.deviceInfo.value {
            properties += [("driver", info.driver), ("card", info.card), ("bus_info", info.busInfo)]
        }
        if let format = report.format.value {
            properties.append(("format", "\(format.pixelFormat) \(format.width)x\(format.height)"))
        }
        for (name, value) in properties {
            xml += "      <property name=\"\(escape(name))\" value=\"\(escape(value))\"/>\n"
        }
        xml += "    </properties>\n"
        let className = escape("arcapture.check.\(report.device)")
        for check in report.checks {
            let body = ([check.detail] + check.notes).joined(separator: "\n")
            xml += "    <testcase classname=\"\(className)\" name=\"\(escape(check.name))\" time=\"0\""
            switch check.status {
            case .pass:
                xml += ">\n      <system-out>\(escape(body))</system-out>\n    </testcase>\n"
            case .fail:
                xml += ">\n      <failure message=\"\(escape(check.detail))\" type=\"\(escape(check.name))\">"
                xml += "\(escape(body))</failure>\n    </testcase>\n"
            case .skip:
                xml += ">\n      <skipped message=\"\(escape(check.detail))\"/>\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// Escapes text for XML attributes and content, dropping characters XML 1.0 forbids.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\t": result += "&#9;"
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
