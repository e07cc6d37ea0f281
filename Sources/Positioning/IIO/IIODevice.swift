import ArcaptureCore

/// An Industrial I/O device in sysfs (`/sys/bus/iio/devices/iio:deviceN`) with the channels an
/// orientation needs.
public struct IIODevice: Hashable, Sendable {
    /// The device's directory.
    public var path: String
    /// Its `name` file: the driver's part name, such as `lsm9ds1_accel` or `ak8975`.
    public var name: String
    /// Whether it has `in_accel_{x,y,z}_raw`.
    public var hasAccelerometer: Bool
    /// Whether it has `in_magn_{x,y,z}_raw`.
    public var hasMagnetometer: Bool

    /// Every IIO device under `root`, sorted by path.
    public static func all(root: String = "/sys/bus/iio/devices") -> [IIODevice] {
        guard case .success(let entries) = FileSystem.entries(of: root) else { return [] }
        return entries.sorted().compactMap { entry in
            let path = root + "/" + entry
            guard let files = try? FileSystem.entries(of: path).get() else { return nil }
            let name =
                FileSystem.readSmallFile(path + "/name")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? entry
            func has(_ channel: String) -> Bool {
                ["x", "y", "z"].allSatisfy { files.contains("in_\(channel)_\($0)_raw") }
            }
            return IIODevice(path: path, name: name, hasAccelerometer: has("accel"), hasMagnetometer: has("magn"))
        }
    }

    /// Reads channel `kind` (`accel`, `magn`): `(raw + offset) × scale` per axis, with the shared or
    /// per-axis `scale` and `offset` files IIO drivers provide.
    func read(_ kind: String) -> Result<SIMD3<Double>, IIOReadError> {
        var vector = SIMD3<Double>()
        for (index, axis) in ["x", "y", "z"].enumerated() {
            let rawPath = "\(path)/in_\(kind)_\(axis)_raw"
            guard let text = FileSystem.readSmallFile(rawPath) else {
                return .failure(IIOReadError(file: rawPath, problem: "cannot be read"))
            }
            guard let raw = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                return .failure(IIOReadError(file: rawPath, problem: "'\(text.prefix(20))' is not a number"))
            }
            let scale = number("in_\(kind)_\(axis)_scale") ?? number("in_\(kind)_scale") ?? 1
            let offset = number("in_\(kind)_\(axis)_offset") ?? number("in_\(kind)_offset") ?? 0
            vector[index] = (raw + offset) * scale
        }
        return .success(vector)
    }

    private func number(_ file: String) -> Double? {
        FileSystem.readSmallFile(path + "/" + file).flatMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
