import ARCompositor
import Foundation

/// One line of the footage sidecar (`--sidecar FILE.jsonl`, schema `arcapture.footage-frame/1`):
/// the frame's time, the pose used, and the POIs drawn with their pixel positions.
struct SidecarRecord: Encodable, Sendable {
    struct Pose: Encodable, Sendable {
        var lat: Double
        var lon: Double
        var altM: Double
        var headingDeg: Double
        var pitchDeg: Double
        var rollDeg: Double
    }

    struct Drawn: Encodable, Sendable {
        var id: String
        var name: String
        var u: Double
        var v: Double
        var distanceM: Double
        var labelled: Bool
    }

    var schema = "arcapture.footage-frame/1"
    var frame: Int
    var file: String?
    /// Nil (null) for a photo without an EXIF time.
    var time: String?
    /// Nil when the frame had no pose (it passed through).
    var pose: Pose?
    var pois: [Drawn] = []
    var instruction: String?
    /// The markers' opacity when an uncertain heading faded them (null at full strength; 0: they
    /// were hidden and `pois` is empty).
    var markerOpacity: Double?
    /// Why the frame was skipped, when it was.
    var skipped: String?
    /// Live capture: the driver's frame counter.
    var sequence: Int?
    /// Live capture: when the frame was taken (the driver's timestamp as wall-clock time).
    var captureTime: String?
    /// Live capture: seconds the pose was extrapolated past the newest fix (0 between two fixes).
    var extrapolationS: Double?
    /// Live capture: the fix the pose came from (its own UTC time and mode).
    var fixTime: String?
    var fixMode: String?
    /// Live capture: why the frame had no pose, when it had none.
    var noPose: String?

    enum CodingKeys: String, CodingKey {
        case schema, frame, file, time, pose, pois, instruction, markerOpacity, skipped
        case sequence, captureTime, extrapolationS, fixTime, fixMode, noPose
    }

    /// Every key of the schema, null when it has no value (docs/json.md: null, never missing; the
    /// synthesised encoding would leave them out); the live keys on live frames' lines only.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schema, forKey: .schema)
        try container.encode(frame, forKey: .frame)
        try container.encode(file, forKey: .file)
        try container.encode(time, forKey: .time)
        try container.encode(pose, forKey: .pose)
        try container.encode(pois, forKey: .pois)
        try container.encode(instruction, forKey: .instruction)
        try container.encode(markerOpacity, forKey: .markerOpacity)
        try container.encode(skipped, forKey: .skipped)
        guard let sequence else { return }
        try container.encode(sequence, forKey: .sequence)
        try container.encode(captureTime, forKey: .captureTime)
        try container.encode(extrapolationS, forKey: .extrapolationS)
        try container.encode(fixTime, forKey: .fixTime)
        try container.encode(fixMode, forKey: .fixMode)
        try container.encode(noPose, forKey: .noPose)
    }

    init(job: AnnotationJob, time: String?) {
        self.init(frame: job.frame.index, file: job.frame.name, time: time, pose: job.pose)
    }

    /// A record for frame `frame`, posed at `pose` (nil: it had none).
    init(frame: Int, file: String?, time: String?, pose: DevicePose?) {
        self.frame = frame
        self.file = file
        self.time = time
        self.pose = pose.map {
            Pose(
                lat: $0.latitude, lon: $0.longitude, altM: $0.altitude, headingDeg: $0.orientation.heading,
                pitchDeg: $0.orientation.pitch, rollDeg: $0.orientation.roll)
        }
    }

    /// Adds what was drawn.
    mutating func add(_ annotation: FrameAnnotation, units: DistanceUnits) {
        instruction = annotation.navigation?.instruction(units: units)
        if annotation.markerOpacity < 1 { markerOpacity = annotation.markerOpacity }
        guard annotation.markerOpacity > 0 else {
            pois = []
            return
        }
        let labelled = Set(annotation.layout.labels.map(\.markerIndex))
        pois = annotation.layout.markers.enumerated().map { index, marker in
            Drawn(
                id: marker.pointOfInterest.id, name: marker.pointOfInterest.name, u: marker.center.x,
                v: marker.center.y, distanceM: marker.distance, labelled: labelled.contains(index))
        }
    }

    /// An encoder for ``line(using:)``: snake_case keys, sorted.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The record as one JSON line, by `encoder` (from ``makeEncoder()``, kept by the writer: one
    /// per frame was most of the sidecar's cost).
    func line(using encoder: JSONEncoder) -> String {
        guard let data = try? encoder.encode(self) else { return "{\"frame\": \(frame), \"schema_error\": true}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
