/// How an IMU's axes sit in the camera's frame (x right, y down, z forward).
///
/// Written as three sensor axes with signs, one per camera axis: `x,y,z` (the default) means the
/// sensor is aligned with the camera; `-y,x,z` means the camera's x is the sensor's −y, its y the
/// sensor's x, its z the sensor's z. Boards print their axes on the silkscreen: read them off with
/// the board mounted.
public struct IMUAxisMapping: Hashable, Sendable, CustomStringConvertible {
    /// For each camera axis, the sensor axis index (0 = x, 1 = y, 2 = z) and its sign.
    public let axes: [(index: Int, sign: Double)]

    /// The sensor aligned with the camera.
    public static let identity = IMUAxisMapping(axes: [(0, 1), (1, 1), (2, 1)])

    private init(axes: [(index: Int, sign: Double)]) { self.axes = axes }

    /// Parses `x,y,z`-style text; nil unless it names each of x, y and z exactly once.
    public init?(parsing text: String) {
        var parsed: [(Int, Double)] = []
        for part in text.split(separator: ",") {
            var name = part.trimmingCharacters(in: .whitespaces).lowercased()
            var sign = 1.0
            if name.hasPrefix("-") {
                sign = -1
                name.removeFirst()
            } else if name.hasPrefix("+") {
                name.removeFirst()
            }
            guard let index = ["x", "y", "z"].firstIndex(of: name) else { return nil }
            parsed.append((index, sign))
        }
        guard parsed.count == 3, Set(parsed.map(\.0)).count == 3 else { return nil }
        axes = parsed
    }

    /// A sensor vector in camera axes.
    public func camera(_ sensor: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(
            sensor[axes[0].index] * axes[0].sign, sensor[axes[1].index] * axes[1].sign,
            sensor[axes[2].index] * axes[2].sign)
    }

    /// `x,y,z`, `-y,x,z`…
    public var description: String {
        axes.map { ($0.sign < 0 ? "-" : "") + ["x", "y", "z"][$0.index] }.joined(separator: ",")
    }

    /// Equal when every axis and sign is.
    public static func == (lhs: IMUAxisMapping, rhs: IMUAxisMapping) -> Bool { lhs.description == rhs.description }

    /// Hashes the description.
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
