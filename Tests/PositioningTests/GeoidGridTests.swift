import Foundation
import TestSupport
import Testing

@testable import Positioning

/// The EGM96 geoid from PROJ's grid (Debian's proj-data), against PROJ's own `cct` applying the
/// same grid (`vgridshift`): sea level's height above the ellipsoid at places over the Earth,
/// between the grid's nodes, across the antimeridian and near the poles.
@Suite("Geoid grid (EGM96)")
struct GeoidGridTests {
    static let places: [(latitude: Double, longitude: Double)] = [
        (60.1699, 24.9384),  // Helsinki
        (45.2735, 13.7142),  // Istria
        (44.27, -71.3),  // the White Mountains
        (0.34, 6.73),  // São Tomé
        (5.0, 78.0),  // south of India: the lowest sea level, about -100 m
        (-8.5, 147.3),  // New Guinea: the highest, about +80 m
        (51.4779, -0.0015),  // Greenwich, just west of 0°
        (-33.9, 151.2),
        (20.0, 179.95),  // the antimeridian's east side: between the last column and the first
        (20.0, -179.95),
        (89.9, 10.0),
        (-89.99, -120.0),
        (37.125, -122.25),  // on a node
    ]

    @Test("heights equal PROJ's cct with egm96_15.gtx to a millimetre, over the whole Earth")
    func matchesPROJ() async throws {
        let grid = try GeoidGrid.shared.get()
        #expect(grid.model == "EGM96")
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("geoid-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data(Self.places.map { "\($0.longitude) \($0.latitude) 0 0\n" }.joined().utf8).write(to: input)
        let result = try await ProcessRunner.run(
            tool: "cct", ["-d", "6", "+proj=vgridshift", "+grids=\(grid.file)", "+multiplier=1"],
            install: "apt-get install proj-bin", input: input)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = result.stdout.split(separator: "\n").compactMap { line in
            Double(line.split(whereSeparator: \.isWhitespace).dropFirst(2).first ?? "")
        }
        #expect(expected.count == Self.places.count, "\(result.stdout)")
        for (place, reference) in zip(Self.places, expected) {
            let value = grid.separation(latitude: place.latitude, longitude: place.longitude)
            #expect(abs(value - reference) < 0.001, "\(place): \(value) m here, \(reference) m by PROJ")
        }
        // Where the Earth's sea level is lowest and highest: the test spans both signs.
        #expect(expected.min() ?? 0 < -90 && expected.max() ?? 0 > 60)
    }

    @Test("a file that is not a GTX grid names itself and what is wrong")
    func notAGrid() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).gtx")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 7, count: 100).write(to: file)
        #expect(throws: GeoidGrid.Problem.self) { try GeoidGrid(gtxFile: file.path) }
        do {
            _ = try GeoidGrid(gtxFile: file.path)
        } catch {
            #expect(error.description.hasPrefix("\(file.path): not a GTX grid"))
        }
        #expect(throws: GeoidGrid.Problem.self) { try GeoidGrid(gtxFile: "/nonexistent/egm96_15.gtx") }
    }
}
