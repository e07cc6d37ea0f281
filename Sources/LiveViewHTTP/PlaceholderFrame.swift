import ARCompositor
import ArcaptureCore
import CaptureKit
import GeoAR
import JPEGKit

/// The frame `/stream` and `/snapshot` show while no camera frame comes (the camera unplugged or
/// stalled, or still starting): dark grey, with why in white, at the camera's size, so that
/// clients keep receiving frames and stay connected across a reconnect (as µStreamer's "no
/// signal" frame does). A missing location fix is not a reason: frames flow unannotated then.
enum PlaceholderFrame {
    /// What the frame says for the view's `phase`: a headline and the phase itself.
    static func lines(forPhase phase: String) -> [String] {
        if phase == LoadPhase.startingCamera.description { return ["starting the camera"] }
        return ["waiting for the camera", phase]
    }

    /// The frame, `width`×`height`, saying `lines`; nil when it cannot be encoded. Without a font
    /// (fontconfig finds none) it is the grey frame alone.
    static func jpeg(width: Int, height: Int, lines: [String]) -> [UInt8]? {
        guard width >= 16, height >= 16, width <= 16384, height <= 16384 else { return nil }
        var image = YCbCrImage(width: width, height: height, subsampling: .s420)
        for index in image.planes[0].bytes.indices { image.planes[0].bytes[index] = 40 }
        if let renderer = try? TextRenderer(pixelSize: max(10, min(48, height / 14))) {
            let painter = Painter()
            let rendered = lines.map { renderer.render($0) }
            let spacing = renderer.pixelSize / 2
            let total = rendered.reduce(0) { $0 + $1.mask.height } + spacing * (rendered.count - 1)
            var top = (height - total) / 2
            for line in rendered {
                let left = max(0, (width - line.mask.width) / 2)
                painter.stamp(line.halo, x: left, y: top, color: .black, on: &image)
                painter.stamp(line.mask, x: left, y: top, color: .white, on: &image)
                top += line.mask.height + spacing
            }
        }
        guard let encoder = try? JPEGEncoder() else { return nil }
        return try? encoder.encode(image, quality: 80)
    }
}
