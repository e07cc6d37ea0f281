import Testing

@testable import ArcaptureCore

/// The digital zoom a view applies (``YCbCrImage/zoom(by:)``): the middle of each plane fills it,
/// chroma moved as far as the luma it belongs to.
@Suite("YCbCrImage zoom")
struct YCbCrImageZoomTests {
    @Test("zoomed by 2, a luma band and a chroma band move out from the centre to twice their distance")
    func bandsMoveOut() {
        // 64x32 at 4:2:0: luma columns 24–27 are chroma columns 12–13.
        var image = YCbCrImage(width: 64, height: 32, subsampling: .s420)
        for y in 0..<32 {
            for x in 24..<28 { image.planes[0][x, y] = 235 }
        }
        for y in 0..<16 {
            for x in 12..<14 { image.planes[1][x, y] = 200 }
        }
        var zoomed = image
        zoomed.zoom(by: 2)
        // Luma 24–27 about x = 32 goes to 16–23; chroma 12–13 about x = 16 goes to 8–11.
        #expect((17..<23).allSatisfy { zoomed.planes[0][$0, 5] == 235 }, "\((0..<64).map { zoomed.planes[0][$0, 5] })")
        #expect((25..<40).allSatisfy { zoomed.planes[0][$0, 5] == 128 })
        #expect((9..<11).allSatisfy { zoomed.planes[1][$0, 3] == 200 }, "\((0..<32).map { zoomed.planes[1][$0, 3] })")
        #expect((13..<20).allSatisfy { zoomed.planes[1][$0, 3] == 128 })
        #expect(zoomed.planes[2] == image.planes[2], "a flat plane stays flat")
        var unchanged = image
        unchanged.zoom(by: 1)
        #expect(unchanged == image, "a factor of 1 changes nothing")
    }
}
