import Foundation
import JPEGKit
import TestSupport
import Testing

/// A DJI photo's attitude from its XMP, in both RDF forms, written by exiftool (an independent
/// writer) into a copy of a real photo.
@Suite("XMP: a DJI photo's gimbal")
struct XMPPacketTests {
    /// A copy of the Lund photo with DJI's XMP properties, as attributes (`shorthand`, as DJI
    /// writes them) or as elements (exiftool's default).
    private func djiPhoto(shorthand: Bool) async throws -> [UInt8] {
        let directory = try PackagePaths.temporaryDirectory("xmp")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("dji.jpg").path
        try FileManager.default.copyItem(atPath: PackagePaths.sample("photos/lund_01.jpg"), toPath: path)
        let result = try await ProcessRunner.run(
            tool: "exiftool",
            ["-q", "-q", "-overwrite_original"] + (shorthand ? ["-api", "XMPShorthand=1"] : []) + [
                "-XMP-drone-dji:GimbalYawDegree=-35.20", "-XMP-drone-dji:GimbalPitchDegree=-30.50",
                "-XMP-drone-dji:GimbalRollDegree=+0.40", "-XMP-drone-dji:FlightYawDegree=-33.00", path,
            ], install: "apt-get install libimage-exiftool-perl")
        #expect(result.status == 0, "\(result.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test(
        "the gimbal's yaw, pitch and roll and the aircraft's yaw, as attributes and as elements",
        arguments: [true, false])
    func attitude(shorthand: Bool) async throws {
        let bytes = try await djiPhoto(shorthand: shorthand)
        let xmp = try #require(XMPPacket(inJPEG: bytes))
        #expect(xmp.text.contains(shorthand ? "drone-dji:GimbalYawDegree='-35.20'" : "<drone-dji:GimbalYawDegree>"))
        let drone = try #require(DroneAttitude(xmp))
        #expect(drone == DroneAttitude(gimbalYaw: -35.2, gimbalPitch: -30.5, gimbalRoll: 0.4, flightYaw: -33))
        // The geotag carries it, beside the EXIF position.
        let tag = try #require(EXIFReader.geotag(inJPEG: bytes))
        #expect(tag.drone == drone)
        #expect(abs(tag.latitude - 55.698167) < 1e-5)
    }

    @Test("found by namespace, whatever its prefix; absent, structured or out of range, nothing")
    func byNamespace() {
        let packet = XMPPacket(
            text: """
                <rdf:Description rdf:about="DJI Meta Data" xmlns:dji="http://www.dji.com/drone-dji/1.0/"
                   xmlns:other="http://example.com/other/" other:GimbalYawDegree="99"
                   dji:GimbalYawDegree="+12.50" dji:GimbalPitchDegree = "-120.0">
                 <dji:GimbalRollDegree><rdf:Seq><rdf:li>1</rdf:li></rdf:Seq></dji:GimbalRollDegree>
                </rdf:Description>
                """)
        #expect(packet.value(namespace: DroneAttitude.namespace, property: "GimbalYawDegree") == "+12.50")
        let drone = DroneAttitude(packet)
        #expect(drone?.gimbalYaw == 12.5)
        #expect(drone?.gimbalPitch == nil)  // -120 is no pitch
        #expect(drone?.gimbalRoll == nil)  // structured
        #expect(DroneAttitude(XMPPacket(text: "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>")) == nil)
        // A photo without XMP has no packet.
        #expect(XMPPacket(inJPEG: [0xFF, 0xD8, 0xFF, 0xD9]) == nil)
    }
}
