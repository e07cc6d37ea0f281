import ARCompositor
import CaptureKit
import Foundation
import Positioning

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
        /// The files of a recording joined from several (its chapters), in order; nil for one.
        var files: [String]? = nil
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

    /// The offset found by matching the footage's own positions with the track (a video with
    /// GPS of its own against a separate track): every key, null when it has no value.
    struct OffsetMatch: Encodable, Sendable {
        var offsetS: Double?
        var spreadS: Double?
        var windows: Int?
        var medianMismatchM: Double?
        var speedCorrelation: Double?
        var matchedFixes: Int?
        var footageFixes: Int?
        var rivalOffsetS: Double?
        var rivalMedianMismatchM: Double?
        var likelyTimeZoneS: Double?
        var reliable: Bool
        var problem: String?
        var applied: Bool

        enum CodingKeys: String, CodingKey {
            case offsetS, spreadS, windows, medianMismatchM, speedCorrelation, matchedFixes, footageFixes
            case rivalOffsetS, rivalMedianMismatchM, likelyTimeZoneS, reliable, problem, applied
        }

        init(_ estimate: TrackOffsetEstimate, applied: Bool) {
            offsetS = estimate.offset
            spreadS = estimate.spread
            windows = estimate.windows
            medianMismatchM = estimate.medianMismatch
            speedCorrelation = estimate.speedCorrelation
            matchedFixes = estimate.matchedFixes
            footageFixes = estimate.footageFixes
            rivalOffsetS = estimate.rival?.offset
            rivalMedianMismatchM = estimate.rival?.medianMismatch
            likelyTimeZoneS = estimate.likelyTimeZone
            reliable = estimate.isReliable
            problem = estimate.problem
            self.applied = applied
        }

        /// No offset found: `problem` says why.
        init(problem: String) {
            reliable = false
            self.problem = problem
            applied = false
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(offsetS, forKey: .offsetS)
            try container.encode(spreadS, forKey: .spreadS)
            try container.encode(windows, forKey: .windows)
            try container.encode(medianMismatchM, forKey: .medianMismatchM)
            try container.encode(speedCorrelation, forKey: .speedCorrelation)
            try container.encode(matchedFixes, forKey: .matchedFixes)
            try container.encode(footageFixes, forKey: .footageFixes)
            try container.encode(rivalOffsetS, forKey: .rivalOffsetS)
            try container.encode(rivalMedianMismatchM, forKey: .rivalMedianMismatchM)
            try container.encode(likelyTimeZoneS, forKey: .likelyTimeZoneS)
            try container.encode(reliable, forKey: .reliable)
            try container.encode(problem, forKey: .problem)
            try container.encode(applied, forKey: .applied)
        }
    }

    var schema = "arcapture.sync/1"
    var track: Track
    var footage: Footage
    var orientation: String
    var overlap: Overlap
    var samples: [FramePose]
    /// Null unless the footage has positions of its own and a separate track was given.
    var offsetMatch: OffsetMatch?

    enum CodingKeys: String, CodingKey {
        case schema, track, footage, orientation, overlap, samples, offsetMatch
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schema, forKey: .schema)
        try container.encode(track, forKey: .track)
        try container.encode(footage, forKey: .footage)
        try container.encode(orientation, forKey: .orientation)
        try container.encode(overlap, forKey: .overlap)
        try container.encode(samples, forKey: .samples)
        try container.encode(offsetMatch, forKey: .offsetMatch)
    }
}
