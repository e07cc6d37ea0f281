import CaptureKit
import Foundation

/// The human-readable `arcapture devices` listing: capture nodes in full, other video nodes in one
/// line each.
///
/// Formats that offer exactly the same sizes and rates as an earlier one say so instead of
/// repeating the table (vivid lists 83 formats with one table), which keeps the listing readable.
enum DeviceListing {
    static func render(_ devices: [CaptureDevice]) -> String {
        var text = ""
        let capture = devices.filter { $0.isCaptureNode || $0.capability == nil }
        let others = devices.filter { !$0.isCaptureNode && $0.capability != nil }
        for device in capture {
            text += renderCaptureNode(device) + "\n"
        }
        if !others.isEmpty {
            text += "Other video nodes (not for video capture):\n"
            for device in others {
                let capability = device.capability
                let caps = capability?.nodeCapabilities.names.joined(separator: ", ") ?? ""
                text += "  \(device.path): \(capability?.card ?? "?") (\(capability?.driver ?? "?")): \(caps)\n"
            }
        }
        return text
    }

    static func renderCaptureNode(_ device: CaptureDevice) -> String {
        var text = "\(device.path)"
        if let capability = device.capability {
            text +=
                ": \(capability.card) (driver \(capability.driver) \(capability.versionString), bus \(capability.busInfo))\n"
        } else {
            text += "\n"
        }
        text += "  access:        \(device.authorization.status.rawValue)"
        if let problem = device.authorization.problem { text += ": \(problem.description)" }
        text += "\n"
        if !device.stablePaths.isEmpty {
            text += "  stable paths:  \(device.stablePaths.joined(separator: "\n                 "))\n"
        }
        guard let capability = device.capability else { return text }
        text += "  capabilities:  \(capability.nodeCapabilities.names.joined(separator: ", "))"
        text += device.isMultiplanar ? " (multi-planar only)\n" : "\n"
        if let format = device.currentFormat {
            text += "  current:       \(format.pixelFormat) \(format.size)"
            if let interval = device.currentFrameInterval { text += " at \(interval)" }
            text += "\n"
        }
        text += "  formats:\n" + renderFormats(device.formats)
        text += "  controls:\n" + renderControls(device.controls)
        return text
    }

    static func renderFormats(_ formats: [SupportedFormat]) -> String {
        var text = ""
        var tables: [[SupportedFrameSize]: FourCC] = [:]
        for format in formats {
            let flags = [
                format.pixelFormat.isCompressed ? "compressed" : nil, format.pixelFormat.isEmulated ? "emulated" : nil,
            ]
            .compactMap { $0 }
            let label = format.fourCC.description.padding(to: 6)
            text += "    \(label)\(format.pixelFormat.description)"
            text += flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))"
            if format.frameSizes.isEmpty {
                text += ": sizes not listed by the driver\n"
            } else if let same = tables[format.frameSizes] {
                text += ": same sizes and rates as \(same)\n"
            } else {
                tables[format.frameSizes] = format.fourCC
                text += "\n"
                for entry in format.frameSizes {
                    text += "          \(sizeText(entry.sizes).padding(to: 14))\(ratesText(entry.frameIntervals))\n"
                }
            }
        }
        return text
    }

    static func sizeText(_ range: FrameSizeRange) -> String {
        switch range {
        case .discrete(let size): "\(size)"
        case .stepwise(let low, let high, let step): "\(low) to \(high) in steps of \(step)"
        case .continuous(let low, let high): "\(low) to \(high)"
        }
    }

    static func ratesText(_ intervals: FrameIntervalRange?) -> String {
        guard let intervals else { return "rates not listed" }
        switch intervals {
        case .discrete(let list):
            let rates = Array(Set(list.map(\.framesPerSecond))).sorted(by: >).map(FrameIntervalText.rate)
            return rates.joined(separator: ", ") + " fps"
        case .stepwise, .continuous:
            return
                "\(FrameIntervalText.rate(intervals.slowestRate)) to \(FrameIntervalText.rate(intervals.fastestRate)) fps"
        }
    }

    static func renderControls(_ controls: [DeviceControl]) -> String {
        guard !controls.isEmpty else { return "    none\n" }
        var text = ""
        for control in controls {
            var line = "    \(control.identifier.padding(to: 34))\(control.type.description.padding(to: 9))"
            switch control.type {
            case .integer, .integer64, .menu, .integerMenu, .bitmask:
                line += "\(control.minimum)..\(control.maximum)"
                if control.step > 1 { line += " step \(control.step)" }
                line += " default \(control.defaultValue)"
            case .boolean:
                line += "default \(control.defaultValue)"
            default:
                break
            }
            if let value = control.value { line += " = \(value)" }
            if let item = control.menuItems.first(where: { Int64($0.index) == control.value }) {
                line += " (\(item.name ?? item.value.map(String.init) ?? ""))"
            }
            let flags = control.flags.subtracting(.slider).names
            if !flags.isEmpty { line += " [\(flags.joined(separator: ", "))]" }
            text += line + "\n"
            if !control.menuItems.isEmpty {
                let items = control.menuItems.map { "\($0.index): \($0.name ?? $0.value.map(String.init) ?? "")" }
                text += "        " + items.joined(separator: "  ") + "\n"
            }
        }
        return text
    }
}

/// Rates as people write them: `30`, `12.5`, `29.97`.
enum FrameIntervalText {
    static func rate(_ fps: Double) -> String {
        let hundredths = (fps * 100).rounded()
        if hundredths.truncatingRemainder(dividingBy: 100) == 0 { return String(Int(hundredths / 100)) }
        if hundredths.truncatingRemainder(dividingBy: 10) == 0 { return String(format: "%.1f", fps) }
        return String(format: "%.2f", fps)
    }
}

extension String {
    /// The string padded with spaces to at least `width` characters, plus one space when it is
    /// already that long (so columns never touch).
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
