import Testing

@testable import ArcaptureCLI
@testable import CaptureKit

@Suite("Argument parsing")
struct ArgumentParserTests {
    static let frames = Option.integer("frames", "N", in: 2...100, default: 30, help: "Frames.")
    static let json = Flag("json", help: "JSON.")
    static let device = Option.text("device", "PATH", help: "Device.")
    static let spec = CommandSpec(
        name: "try", overview: "Try.", usage: "", arguments: [],
        options: [frames.spec, json.spec, device.spec],
        discussion: nil)

    @Test("values with a space or '=', flags, and '--'")
    func values() throws {
        let parsed = try ArgumentParser.parse(
            ["--frames", "12", "--json", "--device=/dev/video2", "--", "--x"], spec: Self.spec, maxPositionals: 1)
        #expect(try parsed.value(Self.frames) == 12)
        #expect(parsed.text(Self.device) == "/dev/video2")
        #expect(parsed.isSet(Self.json))
        #expect(parsed.positionals == ["--x"])
    }

    @Test("the last value of a repeated option wins")
    func repeated() throws {
        let parsed = try ArgumentParser.parse(["--frames", "3", "--frames", "4"], spec: Self.spec)
        #expect(try parsed.value(Self.frames) == 4)
        #expect(parsed.values["frames"] == ["3", "4"])
    }

    @Test("errors name the word and suggest the nearest option")
    func errors() {
        #expect(throws: UsageError("unknown option '--frame' (did you mean '--frames'?)")) {
            try ArgumentParser.parse(["--frame", "3"], spec: Self.spec)
        }
        #expect(throws: UsageError("unknown option '--zzzzzzzz' (see 'arcapture try --help')")) {
            try ArgumentParser.parse(["--zzzzzzzz"], spec: Self.spec)
        }
        #expect(throws: UsageError("--frames needs a value (N)")) {
            try ArgumentParser.parse(["--frames"], spec: Self.spec)
        }
        #expect(throws: UsageError("--json does not take a value")) {
            try ArgumentParser.parse(["--json=yes"], spec: Self.spec)
        }
        #expect(throws: UsageError("unexpected argument 'extra'")) {
            try ArgumentParser.parse(["extra"], spec: Self.spec)
        }
        #expect(throws: UsageError("--frames must be a whole number from 2 to 100, not '1'")) {
            try ArgumentParser.parse(["--frames", "1"], spec: Self.spec).value(Self.frames)
        }
    }

    @Test("a declared default is read when the option is not given, and is what --help shows")
    func defaults() throws {
        let parsed = try ArgumentParser.parse(["--json"], spec: Self.spec)
        #expect(try parsed.value(Self.frames) == 30)
        #expect(!parsed.isGiven(Self.frames))
        #expect(parsed.text(Self.device) == nil)
        #expect(Self.spec.helpText.contains("(default: 30)"))
        #expect(parsed.given([Self.frames.spec, Self.json.spec, Self.device.spec]) == ["json"])
    }

    @Test("help wins wherever it stands, except after '--'")
    func help() {
        #expect(ArgumentParser.wantsHelp(["--bogus", "-h"]))
        #expect(ArgumentParser.wantsHelp(["--frames", "3", "--help"]))
        #expect(!ArgumentParser.wantsHelp(["--", "--help"]))
    }

    @Test("help text has the sections and shows defaults")
    func helpText() {
        let text = Self.spec.helpText
        #expect(text.hasPrefix("OVERVIEW: Try."))
        #expect(text.contains("USAGE: arcapture try"))
        #expect(text.contains("OPTIONS:"))
        #expect(text.contains("--frames N"))
        #expect(text.contains("(default: 30)"))
        #expect(text.contains("-h, --help"))
    }

    @Test("check's options are validated with messages that say what is expected")
    func checkOptions() throws {
        func options(_ words: [String]) throws -> CheckOptions {
            try CheckOptions(ArgumentParser.parse(words, spec: CheckCommand.spec))
        }
        let parsed = try options([
            "--format", "mjpg", "--size", "1280x720", "--fps", "29.97", "--libv4l2", "--location", "60.17,24.94",
        ])
        #expect(parsed.format.pixelFormat?.description == "mjpg")
        #expect(parsed.format.size?.width == 1280)
        #expect(parsed.format.framesPerSecond == 29.97)
        #expect(parsed.format.conversion == .libv4l2)
        #expect(parsed.location?.latitude == 60.17)
        #expect(try options(["--format", "auto"]).format.pixelFormat == nil)
        #expect(throws: UsageError("--size must be WIDTHxHEIGHT such as 1280x720, not '1280'")) {
            try options(["--size", "1280"])
        }
        #expect(throws: UsageError("--format must be a FourCC such as YUYV or MJPG, or 'auto', not 'MOTIONJPEG'")) {
            try options(["--format", "MOTIONJPEG"])
        }
        #expect(throws: UsageError("--location must be LAT,LON or LAT,LON,ALT in degrees and metres, not '100,0'")) {
            try options(["--location", "100,0"])
        }
    }
}
