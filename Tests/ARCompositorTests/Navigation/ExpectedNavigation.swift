import Foundation
import TestSupport
import Testing

/// The independent expectations in Fixtures/expected-navigation.json (made by make-navigation.py
/// with PROJ's geodesic, never with arcapture's code).
struct ExpectedNavigation: Decodable {
    struct ManoeuvreCase: Decodable {
        let kind: String
        let turn: Double
        let along: Double
    }
    struct Synthetic: Decodable {
        let vertices: [[Double]]
        let length: Double
        let manoeuvres: [ManoeuvreCase]
    }
    struct Offset: Decodable {
        let segment: Int
        let offset: Double
        let lat: Double
        let lon: Double
        let distance: Double
        let along: Double
    }
    struct Track: Decodable {
        let points: [[Double]]
        let along: [Double]
        let toEnd: [Double]
        let length: Double
        let offsets: [Offset]
    }
    let synthetic: Synthetic
    let visnjan: Track

    static func load() throws -> ExpectedNavigation {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/expected-navigation", withExtension: "json"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(ExpectedNavigation.self, from: Data(contentsOf: url))
    }
}
