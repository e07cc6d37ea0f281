import Foundation
import TestSupport
import Testing

/// Labels in scripts the installed fonts do not cover (issue 39, item 6): said once, before the
/// first frame, naming the script, a label and the package, instead of drawing empty boxes
/// silently. The machine's fonts are narrowed to DejaVu alone through fontconfig's own
/// FONTCONFIG_FILE, as on a board with only fonts-dejavu-core.
@Suite("arcapture annotate: labels in scripts no font covers")
struct LabelScriptTests {
    static let pose = [
        "--hfov", "70", "--position", "45.2735,13.7142,300", "--orientation", "90,0,0", "--max-distance", "20000",
    ]

    /// A POI file east of the pose, one POI per name.
    static func pois(_ names: [String], in directory: URL) throws -> String {
        let features = names.enumerated().map { index, name in
            [
                "type": "Feature", "properties": ["name": name],
                "geometry": [
                    "type": "Point", "coordinates": [13.79 + Double(index) * 0.02, 45.26 + Double(index) * 0.01],
                ],
            ] as [String: Any]
        }
        let url = directory.appendingPathComponent("pois.geojson")
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]).write(to: url)
        return url.path
    }

    /// A fontconfig configuration with DejaVu's folder only.
    static func dejaVuOnly(in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("fonts.conf")
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
            <fontconfig>
              <dir>/usr/share/fonts/truetype/dejavu</dir>
              <cachedir>\(directory.appendingPathComponent("fontconfig-cache").path)</cachedir>
            </fontconfig>
            """
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("Thai labels with only DejaVu installed: one warning naming Thai, a label, the count and fonts-noto-core")
    func uncoveredScript() async throws {
        let directory = try PackagePaths.temporaryDirectory("label-scripts")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pois = try Self.pois(["กรุงเทพมหานคร", "Lund", "เชียงใหม่", "서울"], in: directory)
        let photo = PackagePaths.sample("frames/lund-640x480.jpg")
        let narrowed = try await Binary.run(
            ["annotate", photo, "--pois", pois] + Self.pose + [
                "--output", directory.appendingPathComponent("a.jpg").path,
            ],
            environment: ["FONTCONFIG_FILE": try Self.dejaVuOnly(in: directory)])
        #expect(narrowed.status == 0, "\(narrowed.stderr)")
        let warnings = narrowed.stderr.split(separator: "\n").filter { $0.contains("no installed font draws") }
        #expect(
            warnings == [
                "warning: no installed font draws Thai: 'กรุงเทพมหานคร' and 1 other label will show empty boxes for it "
                    + "(install fonts-noto-core, or give the style a font that covers Thai)",
                "warning: no installed font draws Hangul: '서울' will show empty boxes for it "
                    + "(install fonts-noto-cjk, or give the style a font that covers Hangul)",
            ], "\(narrowed.stderr)")
        // With the machine's fonts (Noto's, installed by scripts/install-deps), nothing to say.
        let full = try await Binary.run(
            ["annotate", photo, "--pois", pois] + Self.pose + [
                "--output", directory.appendingPathComponent("b.jpg").path,
            ])
        #expect(full.status == 0, "\(full.stderr)")
        #expect(!full.stderr.contains("no installed font draws"), "\(full.stderr)")
    }
}
