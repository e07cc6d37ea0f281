import Foundation
import GeoAR
import Testing

@Suite("Output templates")
struct OutputTemplateTests {
    @Test("strftime tokens, milliseconds and the frame counter")
    func names() {
        // 2026-11-29 12:34:56.789 UTC, read in UTC so the test does not depend on the machine's zone.
        setenv("TZ", "UTC", 1)
        tzset()
        let date = Date(timeIntervalSince1970: 1795955696.789)
        #expect(
            OutputTemplate(pattern: "still-%Y%m%d-%H%M%S-%L.jpg").name(counter: 1, date: date)
                == "still-20261129-123456-789.jpg")
        #expect(OutputTemplate(pattern: "lapse-%4n.jpg").name(counter: 12, date: date) == "lapse-0012.jpg")
        #expect(OutputTemplate(pattern: "%n-%2n-100%%.jpg").name(counter: 3, date: date) == "3-03-100%.jpg")
        #expect(OutputTemplate(pattern: "frame-%4n.jpg").variesPerFrame)
        #expect(!OutputTemplate(pattern: "frame.jpg").variesPerFrame)
        for varying in ["%n.jpg", "%12n", "%Y-%L.jpg", "%s.jpg", "at-%T.jpg", "%H%M%S.jpg"] {
            #expect(OutputTemplate(pattern: varying).variesPerFrame, "\(varying)")
        }
        for fixed in ["100%%n.jpg", "%Y%m%d-%H%M.jpg", "n.jpg", "%", "50%4"] {
            #expect(!OutputTemplate(pattern: fixed).variesPerFrame, "\(fixed)")
        }
    }
}
