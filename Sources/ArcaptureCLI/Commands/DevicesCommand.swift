import CaptureKit

/// `arcapture devices`: every V4L2 video node with its formats, sizes, rates and controls.
enum DevicesCommand {
    static let json = Flag("json", help: "Print the listing as JSON (schema arcapture.devices/1, see docs/json.md).")
    static let dev = Option.text(
        "dev", "DIRECTORY", default: "/dev",
        help: "Where to look for video* nodes and the v4l/by-id and v4l/by-path links.")

    static let spec = CommandSpec(
        name: "devices",
        overview: """
            List every V4L2 video device. Capture nodes come with their driver, stable paths, access, \
            formats, frame sizes, frame rates and controls; other video nodes (outputs, UVC metadata) \
            with one line each.
            """,
        usage: "[--json] [--dev DIRECTORY]",
        arguments: [],
        options: [json.spec, dev.spec],
        discussion: """
            EXIT STATUS:
              0   at least one video capture node was found
              69  no video capture node was found (the listing, possibly empty, is still printed)
            """)

    static func run(_ arguments: [String]) async -> ExitStatus {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, spec: spec)
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        let directory = parsed.text(Self.dev)
        let devices = CaptureDevice.discover(deviceDirectory: directory)
        if parsed.isSet(Self.json) {
            Terminal.out(JSONOutput.encode(DevicesDocument(devices: devices.map(DeviceReport.init))))
        } else if !devices.isEmpty {
            Terminal.out(DeviceListing.render(devices), terminator: "")
        }
        guard devices.contains(where: \.isCaptureNode) else {
            Terminal.error(
                devices.isEmpty
                    ? "no V4L2 video devices in '\(directory)' (is a camera connected and its driver loaded?)"
                    : "no video capture node among the \(devices.count) video devices in '\(directory)'")
            return .unavailable
        }
        return .ok
    }
}
