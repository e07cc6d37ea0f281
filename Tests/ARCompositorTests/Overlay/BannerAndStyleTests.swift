import Foundation
import TestSupport
import Testing

@testable import ARCompositor
@testable import ArcaptureCore

@Suite("Banner template and style file")
struct BannerAndStyleTests {
    @Test("tokens are replaced; strftime formats the time; braces escape; missing values show a dash")
    func bannerTokens() async throws {
        // Local time, as date(1) prints it in this process's zone.
        let clock = try await ProcessRunner.run(
            tool: "date", ["-d", "@1608272150", "+%Y-%m-%d %H:%M:%S | %H.%M"], install: "coreutils"
        )
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let template = try BannerTemplate("{time} | {time:%H.%M} | {lat},{lon} {alt} {heading} {speed} #{frame} {{x}}")
        let values = BannerValues(
            time: Date(timeIntervalSince1970: 1_608_272_150), latitude: 45.2735191, longitude: 13.71421,
            altitude: 257.24, heading: 359.7, speed: 10, frame: 42)
        #expect(
            template.render(values)
                == "\(clock) | 45.273519,13.714210 257.2 m 0° 36 km/h #42 {x}")
        #expect(template.render(values, units: .imperial).contains("844 ft 0° 22 mph"))
        #expect(template.render(BannerValues()) == "– | – | –,– – – – #– {x}")
    }

    @Test("a time stated in a zone is shown in it: the banner says what the camera recorded, whatever TZ is")
    func bannerInStatedZone() throws {
        let template = try BannerTemplate("{time} | {time:%H:%M %Z}")
        let values = BannerValues(time: UTCTime.parse("2022-08-14T11:12:31Z"), utcOffset: 10_800)
        #expect(template.render(values) == "2022-08-14 14:12:31 | 14:12 +03")
    }

    @Test(
        "a bad template names the token and where it is",
        arguments: [
            ("{time} {latitude}", "character 8: unknown token {latitude}"),
            ("{lat:%.3f}", "character 1: {lat} takes no format"),
            ("speed {speed", "character 7: '{' is not closed"),
            ("a } b", "character 3: a lone '}'"),
        ])
    func badTemplates(template: String, message: String) {
        #expect {
            try BannerTemplate(template)
        } throws: { error in
            (error as? BannerTemplateError)?.description.contains(message) == true
        }
    }

    private func style(_ json: String) throws(InputFileError) -> OverlayStyleFile {
        try OverlayStyleFile(JSONValue.parse(Data(json.utf8), file: "style.json"), file: "style.json")
    }

    @Test("a style file sets colours, layers, sizes, units and the banner; what it omits keeps its default")
    func styleFile() throws {
        let file = try style(
            """
            {"font": "DejaVu Serif", "units": "imperial", "layers": ["markers", "labels"],
             "colors": {"route": "#00ff0080", "marker": "#123"}, "categories": {"amenity=cafe": "#8D6E63"},
             "markers": {"max_count": 12, "max_distance_m": 900}, "route": {"width_m": 5},
             "banner": "{lat} {lon}"}
            """)
        #expect(file.style.font == "DejaVu Serif")
        #expect(file.layout.units == .imperial)
        #expect(file.style.layers == [.markers, .labels])
        #expect(file.style.routeColor == RGBAColor(red: 0, green: 255, blue: 0, alpha: 128))
        #expect(file.style.markerColor == RGBAColor(red: 0x11, green: 0x22, blue: 0x33))
        #expect(file.style.categoryColors["amenity=cafe"] == RGBAColor(red: 0x8D, green: 0x6E, blue: 0x63))
        #expect(file.layout.maximumMarkers == 12 && file.layout.maximumDistance == 900)
        #expect(file.style.routeWidth == 5)
        #expect(file.style.textColor == OverlayStyle().textColor)
        #expect(file.banner?.source == "{lat} {lon}")
    }

    @Test(
        "an invalid style names the key and what is wrong",
        arguments: [
            (#"{"colours": {}}"#, #"key "colours": unknown key (known here: font, text_scale"#),
            (
                ##"{"colors": {"rute": "#fff"}}"##,
                #"key "colors.rute": unknown key (known here: marker, marker_outline"#
            ),
            (#"{"colors": {"route": "blue"}}"#, ##"key "colors.route": must be a colour like "#1E88E5""##),
            (#"{"layers": ["route", "pois"]}"#, #"key "layers": unknown layer "pois" (known: "route""#),
            (#"{"markers": {"max_count": "ten"}}"#, #"key "markers.max_count": must be a number, found "ten""#),
            (#"{"route": {"width_m": 0}}"#, #"key "route.width_m": must be between 0.1 and 100, found 0"#),
            (#"{"units": "furlongs"}"#, #"key "units": must be "metric" or "imperial""#),
            (#"{"banner": "{when}"}"#, #"key "banner": character 1: unknown token {when}"#),
            (#"[1, 2]"#, "a style is a JSON object"),
        ])
    func invalidStyles(json: String, message: String) {
        #expect {
            try style(json)
        } throws: { error in
            let text = (error as? InputFileError)?.description ?? ""
            return text.hasPrefix("style.json: ") && text.contains(message)
        }
    }

    @Test("a JSON syntax error in a style file names the line")
    func syntaxError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("style-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("style.json").path
        try Data("{\n  \"font\": \"DejaVu Sans\",\n  \"units\" \"metric\"\n}\n".utf8).write(
            to: URL(fileURLWithPath: path))
        #expect {
            try OverlayStyleFile(contentsOf: path)
        } throws: { error in
            (error as? InputFileError)?.description.contains("line 3") == true
        }
    }
}
