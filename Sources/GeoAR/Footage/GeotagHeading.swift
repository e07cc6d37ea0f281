import Foundation
import JPEGKit
import Positioning

/// Where a geotagged photo looked, from true north: its EXIF image direction as recorded when it is
/// true (`GPSImgDirectionRef T`), or made true with the World Magnetic Model's declination at the
/// photo's place and time when it is magnetic (`M`, as most phones write it: Helsinki's 10° moves
/// every label about a tenth of the frame). One photo and a folder of them decide it here alike.
public struct GeotagHeading: Sendable, Equatable {
    /// How the heading was found.
    public enum Source: Sendable, Equatable {
        /// The image direction was from true north.
        case trueNorth
        /// A DJI photo's gimbal yaw (with its pitch and roll) from its XMP.
        case droneGimbal
        /// A DJI photo's aircraft yaw from its XMP (no gimbal yaw recorded).
        case droneFlight
        /// The image direction was magnetic, made true with this declination.
        case corrected(MagneticDeclination)
        /// The image direction was magnetic and no declination could be had (why): the heading is
        /// the magnetic one, off by the declination there.
        case uncorrected(String)
    }

    /// Degrees clockwise from true north (from magnetic north when ``source`` is uncorrected).
    public let heading: Double
    /// The camera's pitch, when the photo records it (a DJI gimbal's).
    public var pitch: Double?
    /// The camera's roll, when the photo records it (a DJI gimbal's).
    public var roll: Double?
    /// The direction as the file recorded it.
    public let recorded: Double
    /// How ``heading`` was found.
    public let source: Source

    /// The heading of a photo's geotag taken at `time` (its EXIF time or the one given; nil when it
    /// has none), or nil when the geotag has no image direction. A DJI photo's gimbal yaw, pitch
    /// and roll (else its aircraft's yaw) come before its image direction: they are the camera's.
    public init?(_ tag: Geotag, at time: Date?) {
        if let drone = tag.drone, let yaw = drone.gimbalYaw ?? drone.flightYaw {
            recorded = yaw
            heading = CompassDegrees.wrapped(yaw)
            source = drone.gimbalYaw != nil ? .droneGimbal : .droneFlight
            pitch = drone.gimbalYaw != nil ? drone.gimbalPitch : nil
            roll = drone.gimbalYaw != nil ? drone.gimbalRoll : nil
            return
        }
        guard let direction = tag.imageDirection else { return nil }
        recorded = direction
        guard tag.directionIsMagnetic else {
            heading = direction
            source = .trueNorth
            return
        }
        guard let time else {
            heading = direction
            source = .uncorrected("the photo's time, which picks the model's year, is unknown")
            return
        }
        do {
            let declination = try MagneticDeclination.at(
                latitude: tag.latitude, longitude: tag.longitude, heightMetres: tag.altitudeMeanSeaLevel ?? 0,
                time: time)
            heading = declination.trueHeading(fromMagnetic: direction)
            source = .corrected(declination)
        } catch {
            heading = direction
            source = .uncorrected(error.description)
        }
    }

    /// For the pose note: "heading 65.9° (its image direction, 56.0° from magnetic north, with the
    /// declination 9.9° E (WMM2020) there)".
    public var description: String {
        switch source {
        case .trueNorth:
            String(format: "heading %.1f° (its image direction)", heading)
        case .droneGimbal:
            String(format: "heading %.1f°", heading) + (pitch.map { String(format: ", pitch %.1f°", $0) } ?? "")
                + (roll.map { String(format: ", roll %.1f°", $0) } ?? "") + " (its DJI gimbal's, from its XMP)"
        case .droneFlight:
            String(format: "heading %.1f° (its DJI aircraft's yaw, from its XMP: no gimbal yaw recorded)", heading)
        case .corrected(let declination):
            String(format: "heading %.1f° (its image direction, %.1f° from magnetic north, ", heading, recorded)
                + "with the declination \(declination) there)"
        case .uncorrected:
            String(format: "heading %.1f° (its image direction, from magnetic north)", heading)
        }
    }

    /// What a user must be warned of: a magnetic direction drawn as if true, and why it could not
    /// be corrected; nil otherwise.
    public var warning: String? {
        guard case .uncorrected(let why) = source else { return nil }
        return String(format: "its image direction, %.1f°, is from magnetic north (GPSImgDirectionRef M) ", recorded)
            + "and is drawn as if from true north, as \(why): its labels are off by the magnetic declination there"
    }
}
