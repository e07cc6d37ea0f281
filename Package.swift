// swift-tools-version:6.0
//
// arcapture: a geo-AR camera pipeline for Linux. No outside Swift packages:
// everything below is the toolchain plus C libraries from Debian
// (libv4l-dev, libturbojpeg0-dev, libjpeg62-turbo-dev, libyaml-dev, libfreetype-dev, libfontconfig-dev, libmicrohttpd-dev,
// libprotobuf-c-dev,
// libavformat-dev, libavcodec-dev, libavutil-dev), reached through small C targets.
import PackageDescription

let package = Package(
    name: "arcapture",
    products: [
        .executable(name: "arcapture", targets: ["arcapture"]),
        .library(name: "ArcaptureCore", targets: ["ArcaptureCore"]),
        .library(name: "Positioning", targets: ["Positioning"]),
        .library(name: "JPEGKit", targets: ["JPEGKit"]),
        .library(name: "Footage", targets: ["Footage"]),
        .library(name: "CaptureKit", targets: ["CaptureKit"]),
        .library(name: "ARCompositor", targets: ["ARCompositor"]),
        .library(name: "GeoAR", targets: ["GeoAR"]),
        .library(name: "LiveViewHTTP", targets: ["LiveViewHTTP"]),
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
        // Text: FreeType, fontconfig, HarfBuzz and FriBidi; HarfBuzz's pkg-config supplies its own
        // include directory and FreeType's.
        .systemLibrary(
            name: "CText", pkgConfig: "harfbuzz",
            providers: [.apt(["libfreetype-dev", "libfontconfig-dev", "libharfbuzz-dev", "libfribidi-dev"])]),

        // libheif: HEIF/HEIC photos (an iPhone's), decoded with their EXIF, XMP and colour profile.
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),

        // zlib: gzip-compressed tracks (`.gpx.gz`, `.nmea.gz`, `.kml.gz`).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),

        // protobuf-c: DJI's djmd metadata track (Osmo Action 4/5, Avata 2, Osmo 360), decoded by the
        // code protoc-c wrote from the published schemas in its proto/ (scripts/generate-dji-metadata).
        .target(name: "CDJIMetadata", exclude: ["proto"], linkerSettings: [.linkedLibrary("protobuf-c")]),

        // GNU libmicrohttpd: the HTTP server of `arcapture serve`.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),

        // FFmpeg's libraries: video files (MP4, MOV, MKV) and the telemetry tracks inside them.
        .target(
            name: "CFFmpeg",
            linkerSettings: [.linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil")]),

        // The modules, in dependency order (docs/architecture.md; Tests/arcaptureTests/ModuleGraphTests
        // holds them to it). The core: the syscall choke point, Errno, Locked, input files, time,
        // frame sizes and planes, JPEG markers. No C library but libc.
        .target(name: "ArcaptureCore"),
        // Location and pose: fixes and their sources (gpsd, NMEA, GPX, a fixed place, a replayed
        // track), GPMF payloads, DJI subtitles and djmd metadata (protobuf-c), FIT activities, gzip-compressed tracks (zlib), heading
        // estimation, IIO sensors.
        .target(name: "Positioning", dependencies: ["ArcaptureCore", "CZlib", "CDJIMetadata"]),
        // JPEG: libjpeg-turbo's codec, the splicer and restart scans (libjpeg), EXIF.
        .target(name: "JPEGKit", dependencies: ["ArcaptureCore", "CTurboJPEG", "CLibJPEG"]),
        // Footage and media: the readers (MJPEG, Y4M, folders, pipes, video through FFmpeg), the video
        // writer and stream copy, a video's telemetry extracted from its container.
        .target(name: "Footage", dependencies: ["ArcaptureCore", "Positioning", "JPEGKit", "CFFmpeg", "CHeif"]),
        // V4L2 capture only: devices, formats, controls, authorization, the session (which streams
        // once a location source is assigned), the loopback output.
        .target(name: "CaptureKit", dependencies: ["ArcaptureCore", "Positioning", "CV4L2"]),
        // Geodesy, camera models, projection, layout and rasterising: no V4L2, JPEG or FFmpeg.
        .target(
            name: "ARCompositor",
            dependencies: ["ArcaptureCore", "Positioning", "CYAML", "CText", "CRasterKernels"]),
        // The geo-AR view API and the one frame pipeline (sources, pose lookup, annotator, sinks).
        .target(
            name: "GeoAR",
            dependencies: [
                "ArcaptureCore", "Positioning", "JPEGKit", "Footage", "CaptureKit", "ARCompositor", "CFileSystem",
                "CRasterKernels",
            ]),
        // `serve`'s HTTP server (libmicrohttpd): the page, the stream, /state and events.
        .target(
            name: "LiveViewHTTP",
            dependencies: ["ArcaptureCore", "JPEGKit", "CaptureKit", "ARCompositor", "GeoAR", "CMicroHTTPD"]),
        // C shim: statfs and syncfs, which Swift's Glibc module does not export (FAT's durability).
        .target(name: "CFileSystem"),
        // The command line: parses arguments, builds pipelines from GeoAR, prints reports. A library
        // so that the fuzz harnesses reach its argument parsing; the executable is its `main`.
        .target(
            name: "ArcaptureCLI",
            dependencies: [
                "ArcaptureCore", "Positioning", "JPEGKit", "Footage", "CaptureKit", "ARCompositor", "GeoAR",
                "LiveViewHTTP",
            ]),
        .executableTarget(name: "arcapture", dependencies: ["ArcaptureCLI"]),
        // Benchmarks: `swift run -c release arcapture-bench`.
        .executableTarget(
            name: "arcapture-bench",
            dependencies: [
                "ArcaptureCore", "Positioning", "JPEGKit", "Footage", "CaptureKit", "ARCompositor", "GeoAR",
                "LiveViewHTTP",
                "ScriptedCamera",
            ],
            path: "bench",
            exclude: ["count-allocations.sh", "compare-bench.sh", "footage", "serve"]),

        // Helpers shared by the test targets (running programs, gpsfake, paths, fixtures;
        // pseudo-terminals in C). Fixtures are read from the source tree by path.
        .target(name: "CTestSupport", path: "Tests/CTestSupport"),
        .target(
            name: "TestSupport", dependencies: ["CTestSupport", "ArcaptureCore", "Positioning"],
            path: "Tests/TestSupport",
            exclude: ["Fixtures"]),
        // A scripted fake V4L2 device for unit tests of sessions and views (through CaptureKit's
        // testing seam, `@_spi(Testing)`): formats and faults no virtual driver offers; and a
        // session started over it, recorded.
        .target(
            name: "ScriptedCamera", dependencies: ["ArcaptureCore", "Positioning", "CaptureKit"],
            path: "Tests/ScriptedCamera"),
        // One test target per library, and arcaptureTests, which runs the built binary.
        .testTarget(name: "ArcaptureCoreTests", dependencies: ["ArcaptureCore", "TestSupport"]),
        .testTarget(
            name: "PositioningTests", dependencies: ["ArcaptureCore", "Positioning", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(name: "JPEGKitTests", dependencies: ["ArcaptureCore", "JPEGKit", "TestSupport"]),
        .testTarget(
            name: "FootageTests", dependencies: ["ArcaptureCore", "Positioning", "JPEGKit", "Footage", "TestSupport"]),
        .testTarget(
            name: "CaptureKitTests",
            // JPEGKit: frames are checked with a decoder (the library itself holds none).
            dependencies: [
                "ArcaptureCore", "Positioning", "JPEGKit", "CaptureKit", "CV4L2", "TestSupport", "ScriptedCamera",
            ]),
        .testTarget(
            name: "ARCompositorTests",
            // JPEGKit: the spliced-overlay tests draw on frames the splicer decodes (the library links none).
            dependencies: ["ArcaptureCore", "Positioning", "JPEGKit", "ARCompositor", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "GeoARTests",
            dependencies: [
                "ArcaptureCore", "Positioning", "JPEGKit", "Footage", "CaptureKit", "ARCompositor", "GeoAR",
                "TestSupport",
                "ScriptedCamera",
            ]),
        .testTarget(
            name: "LiveViewHTTPTests",
            dependencies: [
                "ArcaptureCore", "JPEGKit", "CaptureKit", "ARCompositor", "GeoAR", "LiveViewHTTP", "TestSupport",
                "ScriptedCamera",
            ]),
        .testTarget(
            name: "arcaptureTests",
            dependencies: [
                "arcapture", "ArcaptureCLI", "ArcaptureCore", "Positioning", "JPEGKit", "Footage", "CaptureKit",
                "ARCompositor", "GeoAR", "LiveViewHTTP", "TestSupport",
            ],
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
            name: "arcapture-fuzz",
            dependencies: [
                "ArcaptureCore", "Positioning", "JPEGKit", "Footage", "CaptureKit", "ARCompositor", "GeoAR",
                "LiveViewHTTP",
                "ArcaptureCLI",
            ], path: "fuzz",
            exclude: ["corpus", "regressions"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
}
