import Foundation
import JPEGKit
import TestSupport
import Testing

/// A photo's field of view from its lens data: the diagonal kept for a 35 mm equivalent, the
/// sensor's width for a focal length, and a picture stored turned.
@Suite("A photo's field of view from its EXIF")
struct PhotoLensTests {
    @Test("the 35 mm equivalent keeps the film's diagonal: 3:2 is 36 mm across, 4:3 34.6 mm, upright 3:4 25.96 mm")
    func equivalent() throws {
        let lens = PhotoLens(focalLengthIn35mm: 28)
        func degrees(_ millimetres: Double) -> Double { 2 * atan(millimetres / 56) * 180 / .pi }
        let wide = try #require(lens.horizontalFieldOfView(width: 3000, height: 2000))
        #expect(abs(wide.degrees - degrees(36)) < 1e-6)
        let fourThirds = try #require(lens.horizontalFieldOfView(width: 4032, height: 3024))
        #expect(abs(fourThirds.degrees - degrees(43.266615 * 0.8)) < 1e-4)
        let portrait = try #require(lens.horizontalFieldOfView(width: 3024, height: 4032, turned: true))
        #expect(abs(portrait.degrees - degrees(43.266615 * 0.6)) < 1e-4)
        #expect(wide.from == "its 35 mm equivalent focal length, 28 mm")
    }

    @Test("a focal length on the sensor the focal plane gives; a turned picture's width is the sensor's height")
    func focalPlane() throws {
        let lens = PhotoLens(
            focalLength: 4, focalPlanePixelsPerMillimetre: (800, 800), pixelDimensions: (width: 4000, height: 3000))
        let across = try #require(lens.horizontalFieldOfView(width: 1000, height: 750))  // a resized copy
        #expect(abs(across.degrees - 2 * atan(5.0 / 8) * 180 / .pi) < 1e-9)
        let turned = try #require(lens.horizontalFieldOfView(width: 750, height: 1000, turned: true))
        #expect(abs(turned.degrees - 2 * atan(3.75 / 8) * 180 / .pi) < 1e-9)
        #expect(PhotoLens(focalLength: 4).horizontalFieldOfView(width: 100, height: 100) == nil)
    }

    @Test("read from the Lund photo's EXIF: 35 mm equivalent, 4.3 mm")
    func lund() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("photos/lund_01.jpg"))))
        let lens = try #require(EXIFReader.lens(inJPEG: bytes))
        #expect(lens.focalLengthIn35mm == 35)
        #expect(lens.focalLength == 4.3)
        #expect(EXIFReader.lens(inJPEG: [0xFF, 0xD8, 0xFF, 0xD9]) == nil)
    }
}
