import ARCompositor
import CaptureKit
import Foundation

/// What `arcapture sync` found: the track's and the footage's time spans, their overlap, and the
/// pose at the first, middle and last frame. Encodes as schema `arcapture.sync/1`.
struct SyncReport: Encodable, Sendable {
    struct Track: Encodable, Sendable {
        var file: String
        var fixes: Int
        var start: String?
        var end: String?
        var durationS: Double
        var largestGapS: Double
        var largestGapAt: String?
        var warnings: Int
        var summary: String
    }

    struct Footage: Encodable, Sendable {
        var source: String
        var kind: String
        var frames: Int
        var fps: Double
        var speed: Double
        var offsetS: Double
        var startOrigin: String
        var firstFrame: String
        var lastFrame: String
        var durationS: Double
        var notes: [String]
    }

    struct Overlap: Encodable, Sendable {
        var seconds: Double
        var percentOfFootage: Double
        var framesWithPose: Int
        var framesWithoutPose: Int
        var withoutPoseByReason: [String: Int]
    }

    struct FramePose: Encodable, Sendable {
        var label: String
        var index: Int
        var time: String
        var latitude: Double?
        var longitude: Double?
        var altitudeM: Double?
        var altitudeApproximate: Bool?
        var headingDeg: Double?
        var pitchDeg: Double?
        var rollDeg: Double?
        var headingAccuracyDeg: Double?
        var extrapolationS: Double?
        var noPose: String?

        enum CodingKeys: String, CodingKey {
            case label, index, time, latitude, longitude, altitudeM, altitudeApproximate, headingDeg, pitchDeg
            case rollDeg, headingAccuracyDeg, extrapolationS, noPose
        }

        /// Every key, null when it has no value (docs/json.md: null, never missing); the
        /// synthesised encoding would leave them out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(label, forKey: .label)
            try container.encode(index, forKey: .index)
            try container.encode(time, forKey: .time)
            try container.encode(latitude, forKey: .latitude)
            try container.encode(longitude, forKey: .longitude)
            try container.encode(altitudeM, forKey: .altitudeM)
            try container.encode(altitudeApproximate, forKey: .altitudeApproximate)
            try container.encode(headingDeg, forKey: .headingDeg)
            try container.encode(pitchDeg, forKey: .pitchDeg)
            try container.encode(rollDeg, forKey: .rollDeg)
            try container.encode(headingAccuracyDeg, forKey: .headingAccuracyDeg)
            try container.encode(extrapolationS, forKey: .extrapolationS)
            try container.encode(noPose, forKey: .noPose)
        }
    }

    var schema = "arcapture.sync/1"
    var track: Track
    var footage: Footage
    var orientation: String
    var overlap: Overlap
    var samples: [FramePose]
}
