import ArcaptureCore
import Foundation

/// Orientation from an IMU on the camera, read through the Linux IIO sysfs interface: the
/// accelerometer gives pitch and roll, the magnetometer (after ``IMUCalibration``) the heading.
///
/// Accelerometer and magnetometer may be one IIO device or two (many 9-axis boards register them
/// separately). Readings are taken ``rate`` times a second on the source's thread; a file that
/// cannot be read makes the status ``LocationStatus/unavailable(_:)`` until it can. The heading's
/// accuracy is the calibration's, or 15° uncalibrated (hard iron alone often turns a heading by
/// tens of degrees). Accelerations during movement tilt the measured "up", so this suits a camera
/// on a mount or carried steadily, not one on a vehicle braking hard.
public final class IIOPoseSource: PoseSource {
    /// The device with the accelerometer.
    public let accelerometer: IIODevice
    /// The device with the magnetometer.
    public let magnetometer: IIODevice
    /// How the accelerometer's axes sit in the camera's frame.
    public let accelerometerAxes: IMUAxisMapping
    /// How the magnetometer's axes sit in the camera's frame.
    public let magnetometerAxes: IMUAxisMapping
    /// The magnetometer's correction, in its own axes.
    public let calibration: IMUCalibration
    /// Degrees from magnetic to true north here, east positive; nil (the default) leaves the
    /// samples magnetic (``OrientationSample/headingIsMagnetic``) for the World Magnetic Model's
    /// declination where the camera is, which the pose's owner knows and this source does not.
    public let declination: Double?
    /// Readings per second.
    public let rate: Double
    private let hub = LocationEventHub(status: .starting)
    private let thread = SourceThread(name: "arcapture.iio")

    /// The heading accuracy assumed without a calibration, in degrees.
    public static let uncalibratedHeadingAccuracy = 15.0

    /// Creates the source.
    public init(
        accelerometer: IIODevice, magnetometer: IIODevice, accelerometerAxes: IMUAxisMapping = .identity,
        magnetometerAxes: IMUAxisMapping = .identity, calibration: IMUCalibration = .none, declination: Double? = nil,
        rate: Double = 20
    ) {
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
        self.accelerometerAxes = accelerometerAxes
        self.magnetometerAxes = magnetometerAxes
        self.calibration = calibration
        self.declination = declination
        self.rate = rate
    }

    /// `imu NAME` (or `imu ACCEL+MAGN` for two devices).
    public var name: String {
        accelerometer == magnetometer ? "imu \(accelerometer.name)" : "imu \(accelerometer.name)+\(magnetometer.name)"
    }

    /// The status now.
    public var status: LocationStatus { hub.status }

    /// Adds an observer.
    public func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        hub.addObserver(observer)
    }

    /// One reading now: the orientation, or why there is none.
    public func read() -> Result<OrientationSample, IIOReadError> {
        let acceleration: SIMD3<Double>
        let field: SIMD3<Double>
        switch (accelerometer.read("accel"), magnetometer.read("magn")) {
        case (.failure(let error), _), (_, .failure(let error)): return .failure(error)
        case (.success(let a), .success(let m)):
            acceleration = accelerometerAxes.camera(a)
            field = magnetometerAxes.camera(calibration.correct(m))
        }
        guard
            let angles = TiltCompensatedCompass.orientation(
                acceleration: acceleration, magneticField: field, declination: declination ?? 0)
        else {
            return .failure(
                IIOReadError(
                    file: accelerometer.path, problem: "no usable tilt (no gravity, or pointing straight up or down)"))
        }
        return .success(
            OrientationSample(
                time: Date(), heading: angles.heading, pitch: angles.pitch, roll: angles.roll,
                headingAccuracy: calibration.headingAccuracy ?? Self.uncalibratedHeadingAccuracy, origin: .imu,
                receivedMonotonicNanoseconds: MonotonicClock.nanoseconds(), headingIsMagnetic: declination == nil))
    }

    /// Starts reading on the source's thread.
    public func start() {
        let interval = 1 / max(rate, 0.1)
        thread.start { [weak self] thread in
            guard let self else {
                thread.stop()
                return
            }
            switch self.read() {
            case .success(let sample):
                self.hub.publish(.status(.fix(.threeD)))
                self.hub.publish(.orientation(sample))
            case .failure(let error):
                self.hub.publish(.status(.unavailable(error.description)))
            }
            thread.sleep(interval)
        }
    }

    /// Stops reading.
    public func stop() { thread.stop() }
}
