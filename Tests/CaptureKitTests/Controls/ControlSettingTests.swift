import Testing

@testable import CaptureKit

/// Controls as a webcam has them (UVC names), resolved from what users type.
@Suite("Control settings")
struct ControlSettingTests {
    static let brightness = DeviceControl(
        id: 0x0098_0900, name: "Brightness", type: .integer, minimum: 0, maximum: 255, step: 1, defaultValue: 128,
        value: 128, flags: [.slider])
    static let zoom = DeviceControl(
        id: 0x009a_090d, name: "Zoom, Absolute", type: .integer, minimum: 100, maximum: 500, step: 1, defaultValue: 100,
        value: 100, flags: [])
    static let exposureAuto = DeviceControl(
        id: 0x009a_0901, name: "Auto Exposure", type: .menu, minimum: 0, maximum: 3, step: 1, defaultValue: 3, value: 3,
        flags: [],
        menuItems: [MenuItem(index: 1, name: "Manual Mode"), MenuItem(index: 3, name: "Aperture Priority Mode")])
    static let powerLine = DeviceControl(
        id: 0x0098_0918, name: "Power Line Frequency", type: .menu, minimum: 0, maximum: 2, step: 1, defaultValue: 1,
        value: 1, flags: [],
        menuItems: [
            MenuItem(index: 0, name: "Disabled"), MenuItem(index: 1, name: "50 Hz"), MenuItem(index: 2, name: "60 Hz"),
        ])
    static let focusAuto = DeviceControl(
        id: 0x009a_090c, name: "Focus, Automatic Continuous", type: .boolean, minimum: 0, maximum: 1, step: 1,
        defaultValue: 1, value: 1, flags: [])
    static let whiteBalance = DeviceControl(
        id: 0x0098_091a, name: "White Balance Temperature", type: .integer, minimum: 2800, maximum: 6500, step: 10,
        defaultValue: 4000, value: 4000, flags: [.inactive])
    static let integerMenu = DeviceControl(
        id: 0x0098_0970, name: "Integer Menu", type: .integerMenu, minimum: 1, maximum: 3, step: 1, defaultValue: 1,
        value: 1, flags: [],
        menuItems: [MenuItem(index: 1, value: 2), MenuItem(index: 2, value: 5), MenuItem(index: 3, value: 13)])
    static let readOnly = DeviceControl(
        id: 0x0098_0999, name: "Power Present", type: .bitmask, minimum: 0, maximum: 1, step: 1, defaultValue: 1,
        value: 1, flags: [.readOnly])
    static let all = [brightness, zoom, exposureAuto, powerLine, focusAuto, whiteBalance, integerMenu, readOnly]

    func resolve(_ text: String) -> Result<ControlResolution, ControlSettingError>? {
        ControlSetting(parsing: text)?.resolve(against: Self.all)
    }

    @Test(
        "settings resolve to the number to write",
        arguments: [
            ("brightness=60", 0x0098_0900, 60), ("Brightness=60%", 0x0098_0900, 153), ("brightness=0%", 0x0098_0900, 0),
            ("0x009a090d=150", 0x009a_090d, 150), ("zoom_absolute=300", 0x009a_090d, 300),
            ("exposure_auto=manual", 0x009a_0901, 1), ("auto_exposure=Aperture Priority Mode", 0x009a_0901, 3),
            ("focus_auto=on", 0x009a_090c, 1),
            ("power_line_frequency=50 Hz", 0x0098_0918, 1), ("power_line_frequency=60_hz", 0x0098_0918, 2),
            ("focus_automatic_continuous=off", 0x009a_090c, 0), ("integer_menu=13", 0x0098_0970, 3),
            ("white_balance_temperature=50%", 0x0098_091a, 4650),
        ])
    func resolves(text: String, id: UInt32, value: Int64) throws {
        let resolution = try #require(try resolve(text)?.get())
        #expect(resolution.control.id == id)
        #expect(resolution.value == value)
        #expect(!resolution.clamped)
    }

    @Test("zoom is clamped to the device's range instead of refused")
    func zoomClamped() throws {
        let high = try #require(try resolve("zoom_absolute=900")?.get())
        #expect((high.value, high.clamped) == (500, true))
        let low = try #require(try resolve("zoom_absolute=10")?.get())
        #expect((low.value, low.clamped) == (100, true))
    }

    @Test(
        "bad settings name the control and what it accepts",
        arguments: [
            ("brightness=300", "brightness must be 0 to 255, not 300"),
            ("white_balance_temperature=2805", "white_balance_temperature must be 2800 to 6500 (step 10), not 2805"),
            (
                "exposure_auto=sport",
                "auto_exposure cannot be 'sport' (it accepts: Manual Mode, Aperture Priority Mode)"
            ),
            ("focus_automatic_continuous=maybe", "cannot be 'maybe' (it accepts: on or off)"),
            (
                "brightness=bright",
                "brightness cannot be 'bright' (it accepts: a number from 0 to 255, or a percentage)"
            ),
            ("brightness=150%", "brightness cannot be '150.0%' (it accepts: 0% to 100%)"),
            ("power_present=0", "power_present is read-only"),
            ("gamma=100", "no control for 'gamma=100' (this device has: brightness, zoom_absolute, auto_exposure"),
        ])
    func errors(text: String, message: String) throws {
        guard case .failure(let error) = try #require(resolve(text)) else {
            Issue.record("\(text) should fail")
            return
        }
        #expect(error.description.contains(message), "\(error.description)")
    }

    @Test(
        "parsing keeps the form the user wrote",
        arguments: ["brightness=60%", "zoom_absolute=150", "exposure_auto=manual", "0x9a090d=150"])
    func parsing(text: String) throws {
        #expect(try #require(ControlSetting(parsing: text)).description == text)
        #expect(ControlSetting(parsing: "brightness") == nil)
        #expect(ControlSetting(parsing: "=5") == nil)
    }
}
