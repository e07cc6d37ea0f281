// swift-tools-version:6.0
//
// arcapture: a geo-AR camera pipeline for Linux. No outside Swift packages:
// everything below is the toolchain plus C libraries from Debian
// (libv4l-dev, libturbojpeg0-dev, libjpeg62-turbo-dev, libyaml-dev, libfreetype-dev, libfontconfig-dev, libmicrohttpd-dev,
// libavformat-dev, libavcodec-dev, libavutil-dev), reached through small C targets.
import PackageDescription

let package = Package(
    name: "arcapture",
    products: [
        .executable(name: "arcapture", targets: ["arcapture"]),
        .library(name: "CaptureKit", targets: ["CaptureKit"]),
        .library(name: "ARCompositor", targets: ["ARCompositor"]),
        .library(name: "GeoAR", targets: ["GeoAR"]),
    ],
    targets: [
        // C shims: request codes, FourCCs and wrappers for variadic calls.
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        .target(name: "CTurboJPEG", linkerSettings: [.linkedLibrary("turbojpeg")]),
        // libjpeg's own API, for what TurboJPEG 2.1 lacks: given tables and restart markers (see its header).
        .target(name: "CLibJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // The compositor's innermost row loops, in C so they vectorise (see its header).
        .target(name: "CRasterKernels"),
        .target(name: "CYAML", linkerSettings: [.linkedLibrary("yaml")]),
        // FreeType and fontconfig for text; pkg-config supplies FreeType's include directory.
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev", "libfontconfig-dev"])]),

        // GNU libmicrohttpd: the HTTP server of `arcapture serve`.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),

        // FFmpeg's libraries: video files (MP4, MOV, MKV) and the telemetry tracks inside them.
        .target(
            name: "CFFmpeg",
            linkerSettings: [.linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil")]),

        .target(name: "CaptureKit", dependencies: ["CV4L2", "CTurboJPEG", "CLibJPEG", "CFFmpeg"]),
        .target(name: "ARCompositor", dependencies: ["CaptureKit", "CYAML", "CFreeType", "CRasterKernels"]),
        // The geo-AR view API and the one frame pipeline (sources, pose lookup, annotator, sinks).
        .target(name: "GeoAR", dependencies: ["CaptureKit", "ARCompositor", "CFileSystem", "CMicroHTTPD"]),
        // C shim: statfs and syncfs, which Swift's Glibc module does not export (FAT's durability).
        .target(name: "CFileSystem"),
        // The command line: parses arguments, builds pipelines from GeoAR, prints reports. A library
        // so that the fuzz harnesses reach its argument parsing; the executable is its `main`.
        .target(name: "ArcaptureCLI", dependencies: ["CaptureKit", "ARCompositor", "GeoAR"]),
        .executableTarget(name: "arcapture", dependencies: ["ArcaptureCLI"]),
        // Benchmarks: `swift run -c release arcapture-bench`.
        .executableTarget(
            name: "arcapture-bench", dependencies: ["CaptureKit", "ARCompositor", "GeoAR", "ScriptedCamera"],
            path: "bench",
            exclude: ["count-allocations.sh", "footage", "serve"]),

        // Helpers shared by the test targets (running programs, gpsfake, paths; pseudo-terminals in C).
        .target(name: "CTestSupport", path: "Tests/CTestSupport"),
        .target(name: "TestSupport", dependencies: ["CTestSupport", "CaptureKit"], path: "Tests/TestSupport"),
        // A scripted fake V4L2 device for unit tests of sessions and views (through CaptureKit's
        // testing seam, `@_spi(Testing)`): formats and faults no virtual driver offers.
        .target(name: "ScriptedCamera", dependencies: ["CaptureKit"], path: "Tests/ScriptedCamera"),
        .testTarget(
            name: "CaptureKitTests",
            dependencies: ["CaptureKit", "CV4L2", "TestSupport", "ScriptedCamera"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ARCompositorTests",
            dependencies: ["ARCompositor", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "GeoARTests", dependencies: ["GeoAR", "CaptureKit", "ARCompositor", "TestSupport", "ScriptedCamera"]),
        .testTarget(
            name: "arcaptureTests",
            dependencies: ["arcapture", "ArcaptureCLI", "CaptureKit", "ARCompositor", "GeoAR", "TestSupport"],
            // Reference images, read from the source tree by path (and regenerated there).
            exclude: ["References"]),
    ],
    swiftLanguageModes: [.v6]
)

// The fuzz harnesses (fuzz/), only when scripts/fuzz builds them: libFuzzer supplies their `main`
// (`-sanitize=fuzzer`), so an ordinary build could not link them.
if Context.environment["ARCAPTURE_FUZZ"] != nil {
    package.targets.append(
        .executableTarget(
            name: "arcapture-fuzz", dependencies: ["CaptureKit", "ARCompositor", "GeoAR", "ArcaptureCLI"], path: "fuzz",
            exclude: ["corpus", "regressions"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
}
