@testable import CaptureKit

/// The JSON documents `arcapture check --json` and `arcapture devices --json` print, as docs/json.md
/// specifies them, decoded independently of the types that write them (so a renamed field fails).
struct CheckDocument: Decodable {
    struct Problem: Decodable {
        let reason: String
        let fix: String?
    }
    struct Authorization: Decodable {
        let status: String
        let reason: String?
        let fix: String?
    }
    struct DeviceInfo: Decodable {
        let driver: String
        let card: String
        let busInfo: String
        let capabilities: [String]
        let stablePaths: [String]
    }
    struct Format: Decodable {
        let pixelFormat: String
        let width: Int
        let height: Int
        let bytesPerLine: Int
        let sizeImage: Int
        let fpsRequested: Double?
        let fpsApplied: Double?
        let buffers: Int
        let libv4l2: Bool
        let chosenAutomatically: Bool
        let explanation: [String]
        let adjustments: [String]
    }
    struct FrameProblem: Decodable {
        let sequence: Int
        let problem: String
    }
    struct Frames: Decodable {
        let requested: Int
        let received: Int
        let valid: Int
        let invalid: Int
        let dropped: Int
        let firstSequence: Int?
        let lastSequence: Int?
        let bytesPerFrame: Int?
        let decoded: Int?
        let structureOnly: Int
        let problems: [FrameProblem]
    }
    struct Lifecycle: Decodable {
        struct Start: Decodable {
            let timeToFirstFrameMs: Double?
            let framesBeforeStop: Int
            let problem: String?
        }
        let cyclesRequested: Int
        let cycles: [Start]
        let stopWithBuffersQueued: Start?
        let reopened: Start?
    }
    struct Modes: Decodable {
        struct Mode: Decodable {
            let pixelFormat: String
            let width: Int
            let height: Int
            let fpsAdvertised: Double?
            let result: String
            let fpsApplied: Double?
            let frames: Int
            let invalid: Int
            let timeToFirstFrameMs: Double?
            let fpsMeasured: Double?
            let problem: String?
        }
        let advertised: Int
        let tried: Int
        let maxModes: Int
        let framesPerMode: Int
        let modes: [Mode]
    }
    struct Picture: Decodable {
        let framesRead: Int
        let lumaMean: Double?
        let lumaSpread: Double?
        let blackFrames: Int
        let flatFrames: Int
        let repeatedFrames: Int
    }
    struct Timing: Decodable {
        let timeToFirstFrameMs: Double?
        let startToFirstFrameMs: Double?
        let spanS: Double?
        let fpsMeasured: Double?
        let fpsSensor: Double?
        let intervalMeanMs: Double?
        let jitterMs: Double?
        let maxDeviationMs: Double?
        let monotonic: Bool
    }
    struct Check: Decodable {
        let name: String
        let status: String
        let detail: String
        let notes: [String]
    }

    let schema: String
    let arcaptureVersion: String
    let device: String
    let result: String
    let exitStatus: Int32
    let error: Problem?
    let authorization: Authorization
    let deviceInfo: DeviceInfo?
    let location: String
    let format: Format?
    let frames: Frames
    let lifecycle: Lifecycle?
    let modes: Modes?
    let picture: Picture
    let timing: Timing
    let checks: [Check]
    let durationS: Double

    func check(_ name: String) -> Check? { checks.first { $0.name == name } }
}

struct DevicesDocumentSchema: Decodable {
    struct Interval: Decodable {
        let numerator: Int
        let denominator: Int
        let fps: Double
    }
    struct Intervals: Decodable {
        let type: String
        let intervals: [Interval]?
    }
    struct Size: Decodable {
        let type: String
        let width: Int?
        let height: Int?
        let intervals: Intervals?
    }
    struct PixelFormat: Decodable {
        let fourcc: String
        let description: String
        let compressed: Bool
        let frameSizes: [Size]
    }
    struct MenuItem: Decodable {
        let index: Int
        let name: String?
        let value: Int64?
    }
    struct Control: Decodable {
        let id: UInt32
        let name: String
        let identifier: String
        let type: String
        let minimum: Int64
        let maximum: Int64
        let `default`: Int64
        let value: Int64?
        let flags: [String]
        let menu: [MenuItem]
    }
    struct Authorization: Decodable {
        let status: String
    }
    struct Device: Decodable {
        let path: String
        let stablePaths: [String]
        let authorization: Authorization
        let driver: String?
        let card: String?
        let busInfo: String?
        let capabilities: [String]
        let isCaptureNode: Bool
        let planes: String?
        let formats: [PixelFormat]
        let controls: [Control]
    }

    let schema: String
    let devices: [Device]
}
