import Foundation
import TestSupport
import Testing

/// The independent expectations in Fixtures/expected-projection.json (made by make-expected.py
/// with PROJ and OpenCV, never with arcapture's code).
struct ExpectedGeometry: Decodable {
    struct Device: Decodable {
        let lat: Double
        let lon: Double
        let alt: Double
        let heading: Double
        let pitch: Double
        let roll: Double
    }
    struct Camera: Decodable {
        let width: Int
        let height: Int
        let fx: Double
        let fy: Double
        let cx: Double
        let cy: Double
        let hfov: Double?
        let model: String?
        let coefficients: [Double]?
    }
    struct Position: Decodable {
        let lat: Double
        let lon: Double
        let alt: Double
    }
    struct Values: Decodable {
        let east: Double
        let north: Double
        let up: Double
        let distance: Double
        let bearing: Double
        let elevation: Double
        let depth: Double
        let u: Double?
        let v: Double?
        let inView: Bool
    }
    struct ProjectionCase: Decodable, CustomTestStringConvertible, Sendable {
        let name: String
        let device: Device
        let camera: Camera
        let poi: Position
        let expected: Values
        var testDescription: String { name }
    }
    struct ECEFCase: Decodable, Sendable {
        let lat: Double
        let lon: Double
        let alt: Double
        let x: Double
        let y: Double
        let z: Double
    }
    struct MonotonicCase: Decodable, Sendable {
        let model: String
        let coefficients: [Double]
        let radius: Double?
    }

    let generator: String
    let projection: [ProjectionCase]
    let ecef: [ECEFCase]
    let monotonic: [MonotonicCase]

    static let shared: ExpectedGeometry = {
        guard let url = Bundle.module.url(forResource: "Fixtures/expected-projection", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { return ExpectedGeometry(generator: "missing fixture", projection: [], ecef: [], monotonic: []) }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return (try? decoder.decode(ExpectedGeometry.self, from: data))
            ?? ExpectedGeometry(generator: "unreadable fixture", projection: [], ecef: [], monotonic: [])
    }()
}

extension ExpectedGeometry.Device: Sendable {}
extension ExpectedGeometry.Camera: Sendable {}
extension ExpectedGeometry.Position: Sendable {}
extension ExpectedGeometry.Values: Sendable {}
