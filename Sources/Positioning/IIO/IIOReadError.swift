/// An IIO sysfs file that could not be read or parsed.
public struct IIOReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// What is wrong.
    public var problem: String

    /// `/sys/bus/iio/devices/iio:device0/in_accel_x_raw: cannot be read`.
    public var description: String { "\(file): \(problem)" }
}
