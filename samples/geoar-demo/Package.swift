// swift-tools-version:6.0
//
// A program built on arcapture's GeoAR library (a path dependency on the package two folders up):
// a geo-AR view over the sample harbour footage, or a camera with `--camera`; the same view in
// structured concurrency (geoar-async); the DocC article's first example (geoar-overview).
import PackageDescription

let package = Package(
    name: "geoar-demo",
    dependencies: [.package(name: "arcapture", path: "../..")],
    targets: [
        .executableTarget(
            name: "geoar-demo",
            dependencies: [
                .product(name: "GeoAR", package: "arcapture"),
                .product(name: "CaptureKit", package: "arcapture"),
                .product(name: "ARCompositor", package: "arcapture"),
                .product(name: "Positioning", package: "arcapture"),
                .product(name: "Footage", package: "arcapture"),
                .product(name: "ArcaptureCore", package: "arcapture"),
            ]),
        // The same view in structured concurrency: sequences and run(), no handlers.
        .executableTarget(
            name: "geoar-async",
            dependencies: [
                .product(name: "GeoAR", package: "arcapture"),
                .product(name: "ARCompositor", package: "arcapture"),
                .product(name: "Footage", package: "arcapture"),
                .product(name: "Positioning", package: "arcapture"),
            ]),
        // The DocC article's first example, character for character (.ci/run checks, builds and
        // runs it from samples/).
        .executableTarget(
            name: "geoar-overview",
            dependencies: [
                .product(name: "GeoAR", package: "arcapture"),
                .product(name: "ARCompositor", package: "arcapture"),
                .product(name: "Footage", package: "arcapture"),
                .product(name: "Positioning", package: "arcapture"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
