import Foundation
import TestSupport
import Testing

/// The page of `arcapture serve` in a real browser: Debian's chromium, headless through
/// chromedriver, on the host, against the server on vivid in the VM (through QEMU's forwarded
/// port). Tests/Browser/live-view.py clicks and reads as a person would and reports what it saw;
/// its screenshots stay in the run's folder (`.build/debug/vivid-vm-run/out/browser-*.png`).
@Suite("arcapture serve's page in chromium", .serialized, .timeLimit(.minutes(40)), .bootsVividVM)
struct VividBrowserTests {
    private func report(_ vm: VividVM, round: String = "browser") throws -> [String: Any] {
        let data = Data(try vm.file("\(round)-report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        if let error = report["error"] as? String {
            let log =
                (try? String(contentsOf: vm.directory.appendingPathComponent("\(round)-driver.log"), encoding: .utf8))
            Issue.record("the browser run failed: \(error)\n\(log ?? "")")
        }
        return report
    }

    @Test("the page plays the stream and shows the phase, the position and live updates")
    func page() async throws {
        let vm = try await VividVM.shared.value
        let report = try report(vm)
        #expect(report["title"] as? String == "arcapture")
        #expect(report["stream_size"] as? [Int] == [320, 180], "the <img> shows the camera's frames")
        #expect(report["stream_changed"] as? Bool == true, "what the <img> shows changes over time")
        #expect(report["updates"] as? String == "live", "the page follows /events")
        #expect(report["phase"] as? String == "running")
        #expect(report["coordinate"] as? String == "52.850155, 5.313617")
        let points = try #require(report["points_listed"] as? [String])
        #expect(points.count == 5)
        #expect(points.first == "Buoy 0 · 150 m", "nearest first, with its distance")
        #expect(report["console_errors"] as? [String] == [], "no script errors in the page")
        let run = try vm.scenario("browser")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("beyond this machine, without --auth"), "listening on 0.0.0.0 warns")
        for name in ["browser-page.png", "browser-selected.png"] {
            let png = try vm.file(name)
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name) is a PNG")
            #expect(png.count > 10_000, "\(name) shows a page, not a blank")
        }
    }

    @Test(
        "clicking a point selects it: highlighted in the page, in /state, in the next frames, and heard by the program's onChange; Clear clears it"
    )
    func selection() async throws {
        let vm = try await VividVM.shared.value
        let report = try report(vm)
        #expect(report["button_selected"] as? Bool == true, "the button is shown selected")
        #expect(report["state_selected"] as? [String] == [BrowserController.pointToSelect])
        let before = try await VividServeTests.selectedColourPixels(
            vm.directory.appendingPathComponent("browser-before.jpg"))
        let selected = try await VividServeTests.selectedColourPixels(
            vm.directory.appendingPathComponent("browser-selected.jpg"))
        #expect(selected > before + 20, "the marker is drawn in the selection's colour: \(before) → \(selected)")
        #expect(report["cleared_in_page"] as? Bool == true)
        #expect(report["state_after_clear"] as? [String] == [])
        // The program heard both through its selection binding's onChange: serve says them.
        let log = try vm.scenario("browser").stderr
        let said = try #require(
            log.range(of: "(\(BrowserController.pointToSelect))\n"), "the click reached serve's onChange: \(log)")
        #expect(log[..<said.lowerBound].contains("selected: "), "\(log)")
        #expect(log[said.upperBound...].contains("selection cleared\n"), "then Clear did: \(log)")
    }

    @Test("--select-center: the view's own selection is shown selected in the page, in /state and in the frames")
    func selectCenter() async throws {
        let vm = try await VividVM.shared.value
        let report = try report(vm, round: "browser-center")
        let inPage = try #require(report["selected_in_page"] as? [String])
        #expect(inPage.count == 1, "one point, the nearest the centre: \(inPage)")
        #expect(report["state_selected"] as? [String] == inPage, "the page shows what /state says")
        #expect((report["points_listed"] as? [String])?.count == 5)
        #expect(report["console_errors"] as? [String] == [])
        let before = try await VividServeTests.selectedColourPixels(
            vm.directory.appendingPathComponent("browser-before.jpg"))
        let center = try await VividServeTests.selectedColourPixels(
            vm.directory.appendingPathComponent("browser-center.jpg"))
        #expect(center > before + 20, "its marker is drawn in the selection's colour: \(before) → \(center)")
        let run = try vm.scenario("browser-center")
        #expect(run.status == 0, "\(run.stderr)")
        let png = try vm.file("browser-center.png")
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "a screenshot of the page")
    }
}
