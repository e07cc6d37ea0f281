import Foundation
import LiveViewHTTP
import Testing

@testable import GeoAR

/// `/state`'s document, field by field where the counts come from the pipeline: what the view's
/// splicing counts (GeoARTests' LiveSplicingTests) become for a browser or a script.
@Suite("The live view's state document")
struct LiveViewStateTests {
    @Test("spliced, not_spliced and the first reason are the view's splice counts; no reason is null")
    func splicing() throws {
        var counts = SpliceCount()
        counts.record(.spliced)
        counts.record(.spliced)
        counts.record(.whole("optimised Huffman tables"))
        let state = LiveViewState(phase: "running", frames: LiveViewState.Frames(written: 3, splicing: counts))
        let frames = try #require(state.jsonObject["frames"] as? [String: Any])
        #expect(frames["spliced"] as? Int == 2 && frames["not_spliced"] as? Int == 1)
        #expect(frames["not_spliced_reason"] as? String == "optimised Huffman tables")
        let none = try #require(LiveViewState(phase: "running").jsonObject["frames"] as? [String: Any])
        #expect(none["spliced"] as? Int == 0 && none["not_spliced"] as? Int == 0)
        #expect(none["not_spliced_reason"] is NSNull)
    }
}
