import CaptureKit

/// The JSON form of one device in `arcapture devices --json` (schema `arcapture.devices/1`,
/// documented in docs/json.md). Field names are stable; new fields may be added.
struct DeviceReport: Encodable, Sendable {
    struct AuthorizationReport: Encodable, Sendable {
        let status: String
        let reason: Nullable<String>
        let fix: Nullable<String>

        init(_ authorization: Authorization) {
            status = authorization.status.rawValue
            reason = Nullable(authorization.problem?.reason)
            fix = Nullable(authorization.problem?.fix.map(CommandLineTerms.translate))
        }
    }

    struct FormatReport: Encodable, Sendable {
        let pixelFormat: String
        let width: UInt32
        let height: UInt32
        let bytesPerLine: UInt32
        let sizeImage: UInt32

        init(_ format: V4L2Format) {
            pixelFormat = format.pixelFormat.description
            width = format.width
            height = format.height
            bytesPerLine = format.bytesPerLine
            sizeImage = format.sizeImage
        }
    }

    struct IntervalReport: Encodable, Sendable {
        let numerator: UInt32
        let denominator: UInt32
        let fps: Double

        init(_ interval: FrameInterval) {
            numerator = interval.numerator
            denominator = interval.denominator
            fps = (interval.framesPerSecond * 1000).rounded() / 1000
        }
    }

    struct IntervalsReport: Encodable, Sendable {
        let type: String
        let intervals: [IntervalReport]?
        let minimum: IntervalReport?
        let maximum: IntervalReport?
        let step: IntervalReport?

        init(_ range: FrameIntervalRange) {
            switch range {
            case .discrete(let list):
                (type, intervals, minimum, maximum, step) = ("discrete", list.map(IntervalReport.init), nil, nil, nil)
            case .stepwise(let low, let high, let by):
                (type, intervals, minimum, maximum, step) =
                    ("stepwise", nil, IntervalReport(low), IntervalReport(high), IntervalReport(by))
            case .continuous(let low, let high):
                (type, intervals, minimum, maximum, step) = (
                    "continuous", nil, IntervalReport(low), IntervalReport(high), nil
                )
            }
        }
    }

    struct SizeReport: Encodable, Sendable {
        let type: String
        let width: UInt32?
        let height: UInt32?
        let minWidth: UInt32?
        let minHeight: UInt32?
        let maxWidth: UInt32?
        let maxHeight: UInt32?
        let stepWidth: UInt32?
        let stepHeight: UInt32?
        let intervals: Nullable<IntervalsReport>

        init(_ entry: SupportedFrameSize) {
            intervals = Nullable(entry.frameIntervals.map(IntervalsReport.init))
            switch entry.sizes {
            case .discrete(let size):
                type = "discrete"
                (width, height) = (size.width, size.height)
                (minWidth, minHeight, maxWidth, maxHeight, stepWidth, stepHeight) = (nil, nil, nil, nil, nil, nil)
            case .stepwise(let low, let high, let step):
                type = "stepwise"
                (width, height) = (nil, nil)
                (minWidth, minHeight, maxWidth, maxHeight) = (low.width, low.height, high.width, high.height)
                (stepWidth, stepHeight) = (step.width, step.height)
            case .continuous(let low, let high):
                type = "continuous"
                (width, height) = (nil, nil)
                (minWidth, minHeight, maxWidth, maxHeight) = (low.width, low.height, high.width, high.height)
                (stepWidth, stepHeight) = (1, 1)
            }
        }
    }

    struct PixelFormatReport: Encodable, Sendable {
        let fourcc: String
        let description: String
        let compressed: Bool
        let emulated: Bool
        let frameSizes: [SizeReport]

        init(_ format: SupportedFormat) {
            fourcc = format.fourCC.description
            description = format.pixelFormat.description
            compressed = format.pixelFormat.isCompressed
            emulated = format.pixelFormat.isEmulated
            frameSizes = format.frameSizes.map(SizeReport.init)
        }
    }

    struct MenuItemReport: Encodable, Sendable {
        let index: UInt32
        let name: String?
        let value: Int64?
    }

    struct ControlReport: Encodable, Sendable {
        let id: UInt32
        let name: String
        let identifier: String
        let type: String
        let minimum: Int64
        let maximum: Int64
        let step: UInt64
        let `default`: Int64
        let value: Nullable<Int64>
        let flags: [String]
        let menu: [MenuItemReport]

        init(_ control: DeviceControl) {
            id = control.id
            name = control.name
            identifier = control.identifier
            type = control.type.description
            minimum = control.minimum
            maximum = control.maximum
            step = control.step
            `default` = control.defaultValue
            value = Nullable(control.value)
            flags = control.flags.names
            menu = control.menuItems.map { MenuItemReport(index: $0.index, name: $0.name, value: $0.value) }
        }
    }

    let path: String
    let stablePaths: [String]
    let authorization: AuthorizationReport
    let driver: Nullable<String>
    let card: Nullable<String>
    let busInfo: Nullable<String>
    let driverVersion: Nullable<String>
    let capabilities: [String]
    let isCaptureNode: Bool
    let planes: Nullable<String>
    let currentFormat: Nullable<FormatReport>
    let currentFps: Nullable<Double>
    let formats: [PixelFormatReport]
    let controls: [ControlReport]

    init(_ device: CaptureDevice) {
        path = device.path
        stablePaths = device.stablePaths
        authorization = AuthorizationReport(device.authorization)
        driver = Nullable(device.capability?.driver)
        card = Nullable(device.capability?.card)
        busInfo = Nullable(device.capability?.busInfo)
        driverVersion = Nullable(device.capability?.versionString)
        capabilities = device.capability?.nodeCapabilities.names ?? []
        isCaptureNode = device.isCaptureNode
        planes = Nullable(device.isCaptureNode ? (device.isMultiplanar ? "multi" : "single") : nil)
        currentFormat = Nullable(device.currentFormat.map(FormatReport.init))
        currentFps = Nullable(device.currentFrameInterval.map { ($0.framesPerSecond * 1000).rounded() / 1000 })
        formats = device.formats.map(PixelFormatReport.init)
        controls = device.controls.map(ControlReport.init)
    }
}

/// The whole `arcapture devices --json` document.
struct DevicesDocument: Encodable, Sendable {
    let schema = "arcapture.devices/1"
    let devices: [DeviceReport]
}
