import Foundation
import Testing

/// PROJ's own answer for the EGM96 geoid: `cct` applying proj-data's `egm96_15.gtx`, the reference
/// heights above sea level are checked against.
public enum PROJGeoid {
    /// Sea level's height above the WGS84 ellipsoid at a place, in metres (NaN when cct failed,
    /// which is recorded).
    public static func separation(latitude: Double, longitude: Double) async throws -> Double {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("geoid-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data("\(longitude) \(latitude) 0 0\n".utf8).write(to: input)
        let result = try await ProcessRunner.run(
            tool: "cct", ["-d", "6", "+proj=vgridshift", "+grids=egm96_15.gtx", "+multiplier=1"],
            install: "apt-get install proj-bin proj-data", input: input)
        #expect(result.status == 0, "\(result.stderr)")
        return Double(result.stdout.split(whereSeparator: \.isWhitespace).dropFirst(2).first ?? "") ?? .nan
    }
}
