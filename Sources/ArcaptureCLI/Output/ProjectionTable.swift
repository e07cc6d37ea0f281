import ARCompositor
import Foundation

/// The human-readable `arcapture project` table, one point per line in file order.
enum ProjectionTable {
    static func render(_ results: [ProjectedPointOfInterest], camera: CameraModel) -> String {
        var text = "camera \(camera.width)x\(camera.height)"
        text += String(
            format: ", fx %.1f fy %.1f cx %.1f cy %.1f", camera.intrinsics.fx, camera.intrinsics.fy,
            camera.intrinsics.cx, camera.intrinsics.cy)
        if camera.distortion != .none { text += ", with lens distortion" }
        text += "; \(results.filter(\.inView).count) of \(results.count) points in view\n"
        text +=
            "id".padding(to: 18) + "name".padding(to: 30) + "u".leftPadded(9) + "v".leftPadded(9)
            + "depth m".leftPadded(11) + "distance m".leftPadded(12) + "bearing".leftPadded(9) + "elev.".leftPadded(8)
            + "  in view\n"
        for result in results {
            let point = result.pointOfInterest
            var line = shorten(point.id, 17).padding(to: 18) + shorten(point.name, 29).padding(to: 30)
            line += (result.pixel.map { String(format: "%.1f", $0.u) } ?? "-").leftPadded(9)
            line += (result.pixel.map { String(format: "%.1f", $0.v) } ?? "-").leftPadded(9)
            line += String(format: "%.1f", result.depth).leftPadded(11)
            line += String(format: "%.1f", result.distance).leftPadded(12)
            line += String(format: "%.1f", result.bearing).leftPadded(9)
            line += String(format: "%.1f", result.elevation).leftPadded(8)
            line += result.inView ? "  yes" : "  no"
            text += line + "\n"
        }
        return text
    }

    /// Cuts long text for a column, with an ellipsis.
    static func shorten(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
