import CaptureKit

/// The result of `arcapture check`, as `--json` prints it (schema `arcapture.check/1`, documented in
/// docs/json.md) and as the text and JUnit renderings read it. Field names are stable; new fields
/// may be added.
struct CheckReport: Encodable, Sendable {
    struct ProblemReport: Encodable, Sendable {
        let reason: String
        let fix: Nullable<String>
    }

    struct DeviceInfo: Encodable, Sendable {
        let driver: String
        let card: String
        let busInfo: String
        let driverVersion: String
        let capabilities: [String]
        let stablePaths: [String]
    }

    struct FormatSection: Encodable, Sendable {
        let pixelFormat: String
        let width: UInt32
        let height: UInt32
        let bytesPerLine: UInt32
        let sizeImage: UInt32
        let fpsRequested: Nullable<Double>
        let fpsApplied: Nullable<Double>
        let buffers: UInt32
        let libv4l2: Bool
        let chosenAutomatically: Bool
        let explanation: [String]
        let adjustments: [String]
    }

    struct FrameProblem: Encodable, Sendable {
        let sequence: UInt32
        let problem: String
    }

    struct FramesSection: Encodable, Sendable {
        let requested: Int
        let received: Int
        let valid: Int
        let invalid: Int
        let dropped: Int
        let firstSequence: Nullable<UInt32>
        let lastSequence: Nullable<UInt32>
        let bytesPerFrame: Nullable<Int>
        /// Compressed frames decoded in full (null for a raw format).
        let decoded: Nullable<Int>
        /// Compressed frames checked for their structure alone, the decoder being behind the camera.
        let structureOnly: Int
        /// The first 20 invalid frames.
        let problems: [FrameProblem]
    }

    /// The starts and stops after the stream (`--cycles`, `CheckLifecycle`).
    struct LifecycleSection: Encodable, Sendable {
        struct Start: Encodable, Sendable {
            let timeToFirstFrameMs: Nullable<Double>
            let framesBeforeStop: Int
            let problem: Nullable<String>
        }
        let cyclesRequested: Int
        let cycles: [Start]
        let stopWithBuffersQueued: Nullable<Start>
        let reopened: Nullable<Start>
    }

    /// Every mode the camera advertises and how each streamed (`--all-formats`, `CheckModes`).
    struct ModesSection: Encodable, Sendable {
        struct Mode: Encodable, Sendable {
            let pixelFormat: String
            let width: UInt32
            let height: UInt32
            /// The fastest rate the driver lists at this size (the one asked for).
            let fpsAdvertised: Nullable<Double>
            /// `pass`, `fail` or `not_tried`.
            let result: String
            let fpsApplied: Nullable<Double>
            let frames: Int
            let invalid: Int
            let timeToFirstFrameMs: Nullable<Double>
            /// From the driver's timestamps over the frames received: reported, not judged.
            let fpsMeasured: Nullable<Double>
            let problem: Nullable<String>
        }
        let advertised: Int
        let tried: Int
        let maxModes: Int
        let framesPerMode: Int
        /// Every advertised mode, in the driver's order.
        let modes: [Mode]
    }

    /// What the pictures show, by luma (`PictureThresholds`).
    struct PictureSection: Encodable, Sendable {
        /// Valid frames whose luma was read (raw frames, and MJPEG frames decoded in full).
        let framesRead: Int
        let lumaMean: Nullable<Double>
        let lumaSpread: Nullable<Double>
        let blackFrames: Int
        let flatFrames: Int
        /// Valid frames that repeat the frame before byte for byte.
        let repeatedFrames: Int
    }

    struct TimingSection: Encodable, Sendable {
        let timeToFirstFrameMs: Nullable<Double>
        let startToFirstFrameMs: Nullable<Double>
        let spanS: Nullable<Double>
        let fpsMeasured: Nullable<Double>
        let fpsSensor: Nullable<Double>
        let intervalMeanMs: Nullable<Double>
        let jitterMs: Nullable<Double>
        let maxDeviationMs: Nullable<Double>
        let monotonic: Bool
    }

    let schema = "arcapture.check/1"
    let arcaptureVersion: String
    let device: String
    /// `pass`, `fail` (a check failed), `error` (the check could not run) or `interrupted`.
    let result: String
    let exitStatus: Int32
    let error: Nullable<ProblemReport>
    let authorization: DeviceReport.AuthorizationReport
    let deviceInfo: Nullable<DeviceInfo>
    let location: String
    let format: Nullable<FormatSection>
    let frames: FramesSection
    /// Null when the stream did not complete.
    let lifecycle: Nullable<LifecycleSection>
    /// Null without `--all-formats`.
    let modes: Nullable<ModesSection>
    let picture: PictureSection
    let timing: TimingSection
    let checks: [CheckItem]
    let durationS: Double
}

/// Rounds figures for reports: three decimals are more than any camera timing deserves.
func rounded(_ value: Double?) -> Double? {
    value.map { ($0 * 1000).rounded() / 1000 }
}
