import Foundation
import TestSupport
import Testing

@testable import Positioning

/// The IMU path against a fake sysfs tree: files written as a real IIO driver lays them out, with
/// raw integer counts computed from a known orientation through the geometry spec's rotation.
@Suite("IMU through IIO sysfs")
struct IIOPoseSourceTests {
    /// Up and the magnetic field in ENU, turned into camera axes for heading h, pitch p, roll r:
    /// rows of R are the camera axes in ENU (geometry spec §3), so v_cam = (x·v, y·v, z·v).
    private func cameraVectors(heading h: Double, pitch p: Double, roll r: Double, declination: Double)
        -> (up: SIMD3<Double>, field: SIMD3<Double>)
    {
        let rad = Double.pi / 180
        let (sh, ch, sp, cp, sr, cr) = (
            sin(h * rad), cos(h * rad), sin(p * rad), cos(p * rad), sin(r * rad), cos(r * rad)
        )
        let z = SIMD3(sh * cp, ch * cp, sp)
        let x0 = SIMD3(ch, -sh, 0)
        let y0 = SIMD3(sh * sp, ch * sp, -cp)
        let x = cr * x0 + sr * y0
        let y = -sr * x0 + cr * y0
        func camera(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3((x * v).sum(), (y * v).sum(), (z * v).sum()) }
        // Magnetic north lies `declination` degrees east of true north; the field dips 65° down.
        let dip = 65 * rad
        let field = SIMD3(sin(declination * rad) * cos(dip), cos(declination * rad) * cos(dip), -sin(dip)) * 0.5
        return (camera(SIMD3(0, 0, 9.80665)), camera(field))
    }

    private func writeDevice(
        at directory: URL, name: String, accel: SIMD3<Double>?, magn: SIMD3<Double>?, magnOffset: SIMD3<Double> = .zero
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func write(_ file: String, _ text: String) throws {
            try text.write(to: directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        try write("name", name + "\n")
        if let accel {
            // 0.000598 m/s² per count, as an LSM9DS1 at ±2 g reports; shared scale file.
            try write("in_accel_scale", "0.000598\n")
            for (index, axis) in ["x", "y", "z"].enumerated() {
                try write("in_accel_\(axis)_raw", "\(Int((accel[index] / 0.000598).rounded()))\n")
            }
        }
        if let magn {
            // Per-axis scales (Gauss per count), as the AK8975 driver exposes them.
            for (index, axis) in ["x", "y", "z"].enumerated() {
                try write("in_magn_\(axis)_scale", "0.00014\n")
                try write("in_magn_\(axis)_raw", "\(Int(((magn[index] + magnOffset[index]) / 0.00014).rounded()))\n")
            }
        }
    }

    private func angle(_ a: Double, _ b: Double) -> Double {
        let d = abs((a - b).truncatingRemainder(dividingBy: 360))
        return min(d, 360 - d)
    }

    @Test(
        "orientation round trip through a 9-axis device's files",
        arguments: [(0.0, 0.0, 0.0), (90, 5, -3), (200, -20, 10), (359, 30, 45), (135, -60, -170)])
    func roundTrip(heading: Double, pitch: Double, roll: Double) throws {
        let root = try PackagePaths.temporaryDirectory("iio")
        defer { try? FileManager.default.removeItem(at: root) }
        let (up, field) = cameraVectors(heading: heading, pitch: pitch, roll: roll, declination: 4.5)
        try writeDevice(at: root.appendingPathComponent("iio:device0"), name: "lsm9ds1", accel: up, magn: field)
        let devices = IIODevice.all(root: root.path)
        let device = try #require(devices.first)
        #expect(device.name == "lsm9ds1" && device.hasAccelerometer && device.hasMagnetometer)
        let source = IIOPoseSource(accelerometer: device, magnetometer: device, declination: 4.5)
        let sample = try source.read().get()
        // Counts are whole numbers: the angles come back to about 0.01°.
        #expect(angle(sample.heading, heading) < 0.05, "heading \(sample.heading)")
        #expect(abs(sample.pitch.map { $0 - pitch } ?? 99) < 0.05)
        #expect(angle(sample.roll ?? 99, roll) < 0.05)
        #expect(sample.headingAccuracy == IIOPoseSource.uncalibratedHeadingAccuracy)
        #expect(!sample.headingIsMagnetic)  // the declination given made it true
    }

    @Test("two devices, rotated axes, and a hard-iron offset removed by calibration")
    func separateDevicesAndCalibration() throws {
        let root = try PackagePaths.temporaryDirectory("iio")
        defer { try? FileManager.default.removeItem(at: root) }
        let (up, field) = cameraVectors(heading: 60, pitch: 10, roll: 0, declination: 0)
        // The magnetometer chip is turned 90° on the board: its x is the camera's y, its y the
        // camera's −x. Camera = (−sensor y, sensor x, sensor z), so sensor = (camera y, −camera x, z).
        let sensorField = SIMD3(field.y, -field.x, field.z)
        let offset = SIMD3(0.2, -0.15, 0.05)
        try writeDevice(at: root.appendingPathComponent("iio:device0"), name: "accel", accel: up, magn: nil)
        try writeDevice(
            at: root.appendingPathComponent("iio:device1"), name: "magn", accel: nil, magn: sensorField,
            magnOffset: offset)
        let devices = IIODevice.all(root: root.path)
        #expect(devices.map(\.name) == ["accel", "magn"])
        let axes = try #require(IMUAxisMapping(parsing: "-y,x,z"))

        let uncalibrated = IIOPoseSource(accelerometer: devices[0], magnetometer: devices[1], magnetometerAxes: axes)
        #expect(angle(try uncalibrated.read().get().heading, 60) > 5)

        // Calibrate from readings all round the sphere, with the same offset and unequal gains.
        var readings: [SIMD3<Double>] = []
        for i in 0..<200 {
            let theta = Double(i) * 0.61
            let phi = acos(1 - 2 * (Double(i) + 0.5) / 200)
            let direction = SIMD3(sin(phi) * cos(theta), sin(phi) * sin(theta), cos(phi)) * 0.5
            readings.append(direction * SIMD3(1.0, 1.1, 0.9) + offset)
        }
        let calibration = try #require(IMUCalibration.fit(readings))
        #expect(abs(calibration.offset.x - 0.2) < 0.01 && abs(calibration.offset.y + 0.15) < 0.01)
        // Unequal gains in the fit data are corrected by scale; the device above has equal gains,
        // so only the offset matters for it: apply the fitted offset with unit scale.
        let offsetOnly = IMUCalibration(offset: calibration.offset, scale: SIMD3(1, 1, 1), headingAccuracy: 2)
        let calibrated = IIOPoseSource(
            accelerometer: devices[0], magnetometer: devices[1], magnetometerAxes: axes, calibration: offsetOnly)
        let sample = try calibrated.read().get()
        #expect(angle(sample.heading, 60) < 1.5)
        #expect(sample.headingAccuracy == 2)
        // No declination given: the heading stays magnetic, marked so, for the World Magnetic Model
        // where the camera is (LivePoseTracker applies it).
        #expect(sample.headingIsMagnetic)
        #expect(IMUCalibration.fit(Array(readings.prefix(10))) == nil)
    }

    @Test("a device that cannot be read is an error naming the file, and the status says so")
    func unreadable() throws {
        let root = try PackagePaths.temporaryDirectory("iio")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = IIODevice(path: root.path + "/gone", name: "gone", hasAccelerometer: true, hasMagnetometer: true)
        let source = IIOPoseSource(accelerometer: device, magnetometer: device, rate: 50)
        #expect(throws: IIOReadError(file: root.path + "/gone/in_accel_x_raw", problem: "cannot be read")) {
            try source.read().get()
        }
        let recorder = LocationEventRecorder()
        let observation = source.addObserver(recorder.handler)
        source.start()
        #expect(
            recorder.wait(seconds: 30) { $0.statuses.contains { if case .unavailable = $0 { true } else { false } } })
        source.stop()
        observation.cancel()
    }

    @Test("axis mappings parse only permutations of x, y and z", arguments: ["x,y", "x,x,z", "x,y,w", ""])
    func badAxes(text: String) {
        #expect(IMUAxisMapping(parsing: text) == nil)
    }
}
