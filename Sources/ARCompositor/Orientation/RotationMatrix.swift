/// A 3×3 rotation, stored by rows, that takes ENU vectors to camera vectors.
///
/// The rows are the camera's x (right), y (down) and z (forward) axes expressed in ENU, so
/// `p_cam = R · p_enu` (geometry spec §3).
public struct RotationMatrix: Hashable, Sendable {
    /// The camera's x axis (image right) in ENU.
    public var row0: SIMD3<Double>
    /// The camera's y axis (image down) in ENU.
    public var row1: SIMD3<Double>
    /// The camera's z axis (optical axis, forward) in ENU.
    public var row2: SIMD3<Double>

    /// Creates a matrix from its rows.
    public init(row0: SIMD3<Double>, row1: SIMD3<Double>, row2: SIMD3<Double>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// `R · v`.
    public func apply(_ vector: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((row0 * vector).sum(), (row1 * vector).sum(), (row2 * vector).sum())
    }

    /// `Rᵀ · v`: camera vectors back to ENU.
    public func applyTransposed(_ vector: SIMD3<Double>) -> SIMD3<Double> {
        row0 * vector.x + row1 * vector.y + row2 * vector.z
    }

    /// The element at `row`, `column`.
    public subscript(row: Int, column: Int) -> Double {
        switch row {
        case 0: row0[column]
        case 1: row1[column]
        default: row2[column]
        }
    }

    /// The transpose, which for a rotation is its inverse.
    public var transposed: RotationMatrix {
        RotationMatrix(
            row0: SIMD3(row0.x, row1.x, row2.x), row1: SIMD3(row0.y, row1.y, row2.y),
            row2: SIMD3(row0.z, row1.z, row2.z))
    }

    /// The product `lhs · rhs`: apply `rhs` first, then `lhs`.
    public static func * (lhs: RotationMatrix, rhs: RotationMatrix) -> RotationMatrix {
        let columns = rhs.transposed
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3((r * columns.row0).sum(), (r * columns.row1).sum(), (r * columns.row2).sum())
        }
        return RotationMatrix(row0: row(lhs.row0), row1: row(lhs.row1), row2: row(lhs.row2))
    }
}
