import Foundation

/// One cue of a DJI subtitle file (the `.SRT` a DJI drone writes beside each video): where it
/// falls in the video and what the drone reported then, as the file states it, before any
/// conversion to a track (``DJISubtitleTrack`` does that).
public struct DJISubtitleCue: Sendable, Equatable {
    /// The cue's place in the file, counting from 1 (its own index line may say otherwise: a
    /// Mavic 2 Pro's start at its frame count).
    public var number: Int
    /// The line its index is on, counting from 1.
    public var line: Int
    /// Seconds from the video's start to the cue's start (its timing line's first time); nil in
    /// the variant without timing lines.
    public var videoTime: Double?
    /// The drone's clock, read as if it were UTC: DJI writes its local wall-clock time with no
    /// zone (the phone's or the remote controller's).
    public var wallClock: Date?
    /// Degrees north, when the cue has a position.
    public var latitude: Double?
    /// Degrees east, when the cue has a position.
    public var longitude: Double?
    /// The fewest decimals either coordinate was written with (4 in the Mavic Pro era: ~11 m).
    public var coordinateDecimals: Int?
    /// Metres above sea level as the drone believes it (`abs_alt`, `altitude`): barometric and GPS
    /// heights fused by the flight controller.
    public var altitudeAboveSeaLevel: Double?
    /// Metres above the take-off point (`rel_alt`, `BAROMETER`, `Hb`, `H`).
    public var heightAboveTakeoff: Double?
    /// The gimbal's (the camera's) yaw, pitch and roll in degrees (`gb_yaw`…, `G.PRY`).
    public var gimbal: (yaw: Double, pitch: Double, roll: Double)?
    /// The airframe's yaw in degrees (`drone_yaw`, `Drone: Yaw`, `F.PRY`): where the drone points,
    /// which the camera follows only when its gimbal is locked forward.
    public var airframeYaw: Double?
    /// How the position was written: `[latitude: …]`, `GPS(lon,lat,satellites)` or
    /// `GPS(lat,lon,alt M)`.
    public var layout: String?
    /// Horizontal speed in metres per second (`H.S`).
    public var horizontalSpeed: Double?
    /// Why the cue gives no position: no GPS fields, `N/A` (no fix), a value that cannot be read,
    /// or the file ending inside it.
    public var problem: String?
    /// Whether ``problem`` is damage (an unreadable value, a cut-off cue) rather than a drone that
    /// had no fix or records no position.
    public var isDamaged: Bool

    /// Creates an empty cue at `line`.
    public init(number: Int, line: Int) {
        self.number = number
        self.line = line
        self.isDamaged = false
    }

    /// Whether the cue gives a position.
    public var hasPosition: Bool { latitude != nil && longitude != nil && problem == nil }

    /// `cue 12 (line 45)`, for messages.
    public var location: String { "cue \(number) (line \(line))" }

    /// Whether two cues say the same.
    public static func == (a: DJISubtitleCue, b: DJISubtitleCue) -> Bool {
        a.number == b.number && a.line == b.line && a.videoTime == b.videoTime && a.wallClock == b.wallClock
            && a.latitude == b.latitude && a.longitude == b.longitude && a.coordinateDecimals == b.coordinateDecimals
            && a.altitudeAboveSeaLevel == b.altitudeAboveSeaLevel && a.heightAboveTakeoff == b.heightAboveTakeoff
            && a.gimbal?.yaw == b.gimbal?.yaw && a.gimbal?.pitch == b.gimbal?.pitch && a.gimbal?.roll == b.gimbal?.roll
            && a.airframeYaw == b.airframeYaw && a.horizontalSpeed == b.horizontalSpeed && a.layout == b.layout
            && a.problem == b.problem
            && a.isDamaged == b.isDamaged
    }
}
