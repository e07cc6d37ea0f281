@testable import ARCompositor

/// The ground shapes as values, for tests (drawing fills a scratch kept between frames instead).
extension GroundGeometry {
    /// ``ribbon(_:width:maximumDistance:scratch:)`` into a shape of its own (no contour when nothing
    /// is in view).
    func ribbon(_ vertices: [(latitude: Double, longitude: Double)], width: Double, maximumDistance: Double) -> Shape {
        let scratch = GroundScratch()
        ribbon(vertices, width: width, maximumDistance: maximumDistance, scratch: scratch)
        return scratch.shape.contours[0].isEmpty ? Shape(contours: []) : scratch.shape
    }

    /// ``arrow(latitude:longitude:bearing:length:scratch:)`` into a shape of its own.
    func arrow(latitude: Double, longitude: Double, bearing: Double, length: Double) -> Shape {
        let scratch = GroundScratch()
        arrow(latitude: latitude, longitude: longitude, bearing: bearing, length: length, scratch: scratch)
        return scratch.shape.contours[0].isEmpty ? Shape(contours: []) : scratch.shape
    }
}
