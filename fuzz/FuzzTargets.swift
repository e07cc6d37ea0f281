// libFuzzer harnesses for every parser of outside data, in one binary: `ARCAPTURE_FUZZ_TARGET`
// names the one to run (scripts/fuzz sets it). Built only by scripts/fuzz, with
// `-sanitize=fuzzer,address`; its entry point hands over to libFuzzer's driver.
//
// Each harness feeds the bytes to a parser exactly as the tools do with a file or a line and
// discards the result: the finding is a crash, a trap, a leak or a hang, never a wrong value
// (the test suites check values). One exception, jpeg-splice: a spliced frame libjpeg-turbo cannot
// read, made from one it can, is a damaged output frame, and traps.
import Foundation

@testable import ARCompositor
@testable import ArcaptureCLI
@testable import ArcaptureCore
@testable import CaptureKit
@testable import Footage
@testable import GeoAR
@testable import JPEGKit
@testable import LiveViewHTTP
@testable import Positioning

/// The harnesses by name, each taking the fuzzer's bytes.
let fuzzTargets: [String: @Sendable ([UInt8]) -> Void] = [
    "nmea": { bytes in
        var decoder = NMEADecoder()
        for (number, line) in String(decoding: bytes, as: UTF8.self).split(separator: "\n").enumerated() {
            _ = decoder.decode(line: line, lineNumber: number + 1)
        }
        _ = decoder.flush()
    },
    "gpsd-json": { bytes in
        var decoder = GPSDMessageDecoder()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            _ = decoder.decode(String(line), received: 0)
        }
    },
    "dji-srt": { bytes in
        _ = try? DJISubtitleTrack(data: Data(bytes), file: "fuzz.srt")
        _ = DJISubtitleTrack.isSubtitleFile(head: Data(bytes))
    },
    "fit": { bytes in
        _ = try? FITActivity.read(Data(bytes), file: "fuzz.fit")
    },
    // A track file as `--track` reads it: gzip inflated, then whatever it holds (GPX, FIT, a DJI
    // .SRT, NMEA) to its parser.
    "track": { bytes in
        _ = try? RecordedTrack.read(Data(bytes), file: "fuzz.track")
        // The first line as a column map (what --track-columns takes), the rest as the CSV it maps.
        if let newline = bytes.firstIndex(of: 10),
            let columns = try? CSVColumnMap(parsing: String(decoding: bytes[..<newline], as: UTF8.self))
        {
            _ = try? RecordedTrack.read(Data(bytes[(newline + 1)...]), file: "fuzz.csv", csvColumns: columns)
        }
    },
    "gpx": { bytes in
        if let file = try? GPXFile(data: Data(bytes), file: "fuzz.gpx") { _ = try? file.recordedTrack() }
    },
    "geojson": { bytes in
        guard let root = try? JSONValue.parse(Data(bytes), file: "fuzz.geojson") else { return }
        if let file = try? GeoJSONFile(root, file: "fuzz.geojson") { _ = file.pointOfInterestNotes(file: "fuzz") }
        if let route = (try? GeoJSONFile(root, file: "fuzz.geojson"))?.routes.first { _ = NavigationRoute(route) }
    },
    "style": { bytes in
        guard let root = try? JSONValue.parse(Data(bytes), file: "fuzz.json") else { return }
        _ = try? OverlayStyleFile(root, file: "fuzz.json")
    },
    "camera-yaml": { bytes in
        guard let root = try? YAMLLoader.load(String(decoding: bytes, as: UTF8.self), file: "fuzz.yaml") else { return }
        if let camera = try? CameraModel.parseCameraInfo(root, file: "fuzz.yaml") {
            _ = try? camera.scaled(toWidth: 640, height: 480)
        }
    },
    "pose-sidecar": { bytes in
        _ = try? SidecarFile(data: Data(bytes), file: "fuzz.csv")
    },
    "exif": { bytes in
        let jpeg =
            [0xFF, 0xD8, 0xFF, 0xE1, UInt8((bytes.count + 8) >> 8 & 0xFF), UInt8((bytes.count + 8) & 0xFF)]
            + Array("Exif\0\0".utf8) + bytes.prefix(65_000) + [0xFF, 0xD9]
        _ = EXIFReader.captureTimeAndGeotag(inJPEG: jpeg)
        _ = EXIFReader.captureTimeAndGeotag(inJPEG: bytes)
        if let lens = EXIFReader.lens(inJPEG: jpeg) { _ = lens.horizontalFieldOfView(width: 4000, height: 3000) }
        if let metadata = PhotoMetadata(inJPEG: jpeg) { _ = metadata.upright() }
        // The same bytes as an XMP packet (a DJI photo's attitude is read from one).
        let xmpHeader = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
        let xmpLength = min(bytes.count, 65_000) + xmpHeader.count + 2
        let xmpJPEG =
            [0xFF, 0xD8, 0xFF, 0xE1, UInt8(xmpLength >> 8 & 0xFF), UInt8(xmpLength & 0xFF)] + xmpHeader
            + bytes.prefix(65_000) + [0xFF, 0xD9]
        if let xmp = XMPPacket(inJPEG: xmpJPEG) { _ = DroneAttitude(xmp) }
        if let metadata = PhotoMetadata(inJPEG: xmpJPEG) { _ = metadata.upright() }
        // The same bytes as a HEIF EXIF item, an XMP packet and an ICC profile, made a JPEG header.
        let header = PhotoMetadata.jpegHeader(
            exif: HEIFPhoto.tiffStructure(bytes), isUpright: true, xmp: bytes, iccProfile: bytes)
        _ = EXIFReader.captureTimeAndGeotag(inJPEG: header)
        if let metadata = PhotoMetadata(inJPEG: header) { _ = metadata.upright() }
    },
    "heif": { bytes in
        // A HEIC's metadata read through libheif (the picture is not decoded: a fuzzed size would
        // be gigapixels of memory, and the decoder is libde265's, fuzzed by OSS-Fuzz).
        if let photo = try? HEIFPhoto(data: Data(bytes), path: "fuzz.heic") {
            _ = EXIFReader.captureTimeAndGeotag(inJPEG: photo.metadataHeader)
            _ = PhotoMetadata(inJPEG: photo.metadataHeader)?.upright()
        }
    },
    "djmd": { bytes in
        // The bytes as a sample of its own (a clip header, or nothing), then after each product's
        // clip header (decoded with that product's schema), and as the messages of a clip split in two.
        var alone = DJIMetadataTrackBuilder(path: "fuzz.mp4")
        alone.add(time: 0, bytes: bytes)
        _ = try? alone.finish()
        for file in ["dvtm_ac203.proto", "dvtm_wa530.proto", "dvtm_oq101.proto", "dvtm_ae2504.proto"] {
            var builder = DJIMetadataTrackBuilder(path: "fuzz.mp4", tag: file.contains("ae25") ? "xtmd" : "djmd")
            builder.add(time: 0, bytes: FuzzFiles.djiClipHeader(file))
            builder.add(time: 0.5, bytes: bytes)
            let half = bytes.count / 2
            builder.add(time: 1, bytes: Array(bytes[..<half]))
            builder.add(time: nil, bytes: Array(bytes[half...]))
            _ = try? builder.finish()
        }
    },
    "insta360": { bytes in
        // The bytes as a whole trailer (their own footer, or none), and as records before a footer
        // that claims them.
        _ = try? Insta360Trailer.track(trailer: bytes, path: "fuzz.insv")
        _ = Insta360Trailer.size(footer: Array(bytes.suffix(Insta360Trailer.footerSize)))
        let size = withUnsafeBytes(of: UInt32(bytes.count + Insta360Trailer.footerSize).littleEndian, Array.init)
        let footer = [UInt8](repeating: 0, count: 32) + size + [3, 0, 0, 0] + Insta360Trailer.signature
        _ = try? Insta360Trailer.track(trailer: bytes + footer, path: "fuzz.insv")
    },
    "camm": { bytes in
        // One sample as it comes, and the same bytes as two samples (records cut across them),
        // finished with and without a creation time (the epoch decision).
        var builder = CAMMTrackBuilder(path: "fuzz.mp4")
        builder.add(time: 0, duration: 1, bytes: bytes)
        let half = bytes.count / 2
        builder.add(time: 1, duration: nil, bytes: Array(bytes[..<half]))
        builder.add(time: nil, duration: 0.5, bytes: Array(bytes[half...]))
        _ = try? builder.finish(created: Date(timeIntervalSince1970: 1_574_120_000))
        _ = try? builder.finish(created: nil)
    },
    "exiftool-json": { bytes in
        // What `exiftool -ee -n -j -G3` prints, as ExifToolTrack reads it.
        _ = try? ExifToolTrack.reading(Data(bytes), path: "fuzz.mp4", version: "12.57")
    },
    "gpmf": { bytes in
        guard let items = try? GPMFItem.parse(bytes) else { return }
        for item in items { _ = try? item.numbers() }
        if let gps = try? GPMFGPSPayload.decode(items) {
            _ = GPMFTrackBuilder.track(
                file: "fuzz.mp4", payloads: [(0, 1, gps), (1, nil, gps)], payloadCount: 2, damaged: 0, warnings: [])
        }
        if let karma = try? GPMFKarmaPayload.decode(items) {
            let offset = GPMFKarmaPayload.clockOffset([karma])
            _ = GPMFTrackBuilder.track(
                file: "fuzz.mp4", payloads: [(0, 1, karma.gps(clockOffset: offset))], payloadCount: 1, damaged: 0,
                warnings: [])
            _ = GPMFTrackBuilder.headings([karma], clockOffset: offset ?? 0)
        }
        if let attitude = try? GPMFAttitudePayload.decode(items) {
            _ = GPMFTrackBuilder.attitudes([(0, 1, attitude), (1, nil, attitude)], clock: 1e9)
        }
    },
    "y4m": { bytes in
        _ = Y4MHeader.parse(bytes.prefix(1024))
        let path = FuzzFiles.write(bytes, suffix: ".y4m")
        defer { unlink(path) }
        if let reader = try? FootageReader(path: path) { while reader.next() != nil {} }
        _ = try? FootageInfo.probe(path)
    },
    "mjpeg": { bytes in
        let stream = [0xFF, 0xD8] + bytes
        var splitter = MJPEGSplitter()
        stream.withUnsafeBytes { raw in
            var offset = 0
            while let piece = splitter.next(in: raw, from: offset) {
                switch piece {
                case .image(let range), .damaged(let range): offset = range.upperBound
                case .truncated: offset = raw.count
                }
            }
        }
        let path = FuzzFiles.write(stream, suffix: ".mjpeg")
        defer { unlink(path) }
        if let reader = try? FootageReader(path: path) { while reader.next() != nil {} }
    },
    "video": { bytes in
        // A video file as a user hands one over (MP4, MOV, MKV, …, whatever FFmpeg's probe takes
        // it for): probed, its GoPro telemetry extracted (GPMF through MediaContainer) and made a
        // track and its headings, as the pose plan does, and its frames decoded (at most 16; a
        // fuzzed size is refused by the reader before it allocates). Through a file on /tmp rather
        // than FFmpeg's custom I/O from memory: a file is the path every user's video takes.
        let path = FuzzFiles.write(bytes, suffix: ".mp4")
        defer { unlink(path) }
        // ExifTool, which a video without GPMF or .SRT is handed to, is a program of its own (its
        // reading is the exiftool-json target's): not run here, where it cost a second an input.
        setenv("PATH", "/nonexistent", 1)
        _ = try? FootageInfo.probe(path)
        if let reading = try? EmbeddedTelemetry.read(path) {
            _ = CourseHeadingEstimator.samples(for: reading.track.fixes)
            _ = reading.track.timeSpan
        }
        if let reader = try? FootageReader(path: path) {
            var frames = 0
            while frames < 16, reader.next() != nil { frames += 1 }
        }
    },
    "mp4-boxes": { bytes in
        // The camera's user data read from a file, and added to a copy of the same file.
        let path = FuzzFiles.write(bytes, suffix: ".mp4")
        defer { unlink(path) }
        if let userData = MovieUserData(readingFileAt: path) { _ = try? userData.add(toFileAt: path) }
    },
    "jpeg-structure": { bytes in
        let jpeg = [0xFF, 0xD8] + bytes
        _ = JPEGStructure.problem(in: jpeg)
        _ = JPEGStructure.insertingStandardHuffmanTables(into: jpeg)
        _ = JPEGStructure.headerSegments(of: jpeg)
        if let metadata = PhotoMetadata(inJPEG: jpeg) {
            _ = JPEGStructure.inserting(metadata: metadata.upright(), into: jpeg)
        }
    },
    "jpeg-decode": { bytes in
        guard let decoder = FuzzFiles.decoder else { return }
        let jpeg = [0xFF, 0xD8] + bytes
        // The header first, as the pipeline reads it: an image too large to be a frame is not
        // decoded (libjpeg-turbo would allocate it), as a camera frame of that size cannot come.
        guard let header = try? jpeg.withUnsafeBytes({ raw in try decoder.readHeader(raw) }),
            header.width * header.height <= 4096 * 4096
        else { return }
        if let image = try? decoder.decode(jpeg) {
            for orientation in ImageOrientation.allCases { _ = image.turnedUpright(orientation) }
        }
    },
    "jpeg-splice": { bytes in
        // A camera's frame spliced (its structure read; a band of columns in a third of its rows,
        // whose intervals are indexed and written again MCU by MCU, and the whole rows of a few
        // more, decoded whole; drawn on, encoded again; the rest walked and copied): nothing may
        // crash, and what comes out must be a JPEG libjpeg-turbo reads.
        guard let splicer = FuzzFiles.splicer, let decoder = FuzzFiles.decoder else { return }
        let jpeg = [0xFF, 0xD8] + bytes
        guard let size = JPEGStructure.imageSize(of: jpeg), Int(size.width) * Int(size.height) <= 2048 * 2048 else {
            return
        }
        var canvas = YCbCrImage(width: 16, height: 16, subsampling: .s422)
        guard splicer.begin(jpeg, canvas: &canvas) else { return }
        let (width, height) = (canvas.width, canvas.height)
        splicer.mark(rows: (height / 3)..<(height * 2 / 3), columns: (width / 3)..<(width / 3 + width / 8 + 1))
        splicer.prepareMarked(in: &canvas)
        splicer.prepare(rows: (height * 5 / 6)..<height, in: &canvas)
        for y in (height / 3)..<(height * 2 / 3) { canvas.planes[0][width / 3 + y % (width / 8 + 1), y] = 255 }
        for y in (height * 5 / 6)..<height { canvas.planes[0][y % width, y] = 255 }
        guard let spliced = try? splicer.finish(&canvas) else { return }
        guard (try? decoder.decode(spliced)) != nil || (try? decoder.decode(jpeg)) == nil else {
            fatalError("a spliced frame libjpeg-turbo cannot read, from one it can")
        }
    },
    "banner": { bytes in
        guard let template = try? BannerTemplate(String(decoding: bytes, as: UTF8.self)) else { return }
        _ = template.render(
            BannerValues(
                time: Date(timeIntervalSince1970: 1_660_000_000), latitude: 60.1, longitude: 24.9, altitude: 3,
                heading: 60, speed: 5, frame: 7))
    },
    "arguments": { bytes in
        // One word per line, the first the subcommand, as a shell hands them over: each command's
        // parser and the option values it converts (sizes, times, durations, locations, poses),
        // never what runs them (no camera, no file is opened).
        let words = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        guard let command = words.first else { return }
        let rest = Array(words.dropFirst())
        _ = ArgumentParser.wantsHelp(rest)
        switch command {
        case "capture":
            guard let parsed = try? ArgumentParser.parse(rest, spec: CaptureCommand.spec) else { return }
            _ = try? CaptureOptions(parsed)
            _ = try? LiveOverlayOptions(parsed)
        case "serve":
            guard let parsed = try? ArgumentParser.parse(rest, spec: ServeCommand.spec) else { return }
            _ = try? CaptureOptions(parsed, broadcast: FrameBroadcast())
            _ = try? LiveOverlayOptions(parsed)
            _ = try? parsed.value(ServeCommand.listen)
        case "check":
            guard let parsed = try? ArgumentParser.parse(rest, spec: CheckCommand.spec) else { return }
            _ = try? CheckOptions(parsed)
        case "project":
            guard let parsed = try? ArgumentParser.parse(rest, spec: ProjectCommand.spec) else { return }
            _ = try? ProjectOptions(parsed)
        case "annotate":
            guard let parsed = try? ArgumentParser.parse(rest, spec: AnnotateCommand.spec, maxPositionals: 1),
                let input = parsed.positionals.first
            else { return }
            for mode in [AnnotateMode.photo, .footage] { _ = mode.refusal(parsed) }
            _ = try? ProjectOptions(parsed, imageSize: FrameSize(width: 640, height: 480))
            _ = try? AnnotateSettings(parsed, input: input)
            _ = try? FootageTimeOptions(parsed)
            _ = try? PoseOptions(parsed)
        case "sync":
            guard let parsed = try? ArgumentParser.parse(rest, spec: SyncCommand.spec) else { return }
            _ = try? FootageTimeOptions(parsed)
            _ = try? PoseOptions(parsed)
        case "location":
            guard let parsed = try? ArgumentParser.parse(rest, spec: LocationCommand.spec, maxPositionals: 1),
                let source = parsed.positionals.first
            else { return }
            _ = try? LocationArgument(parsing: source, option: "location")
        default:
            _ = try? ArgumentParser.parse(rest, spec: DevicesCommand.spec)
        }
    },
    "serve-request": { bytes in
        // What `arcapture serve` reads from a client once libmicrohttpd has parsed the HTTP: the
        // method, path, query arguments, Authorization header and body, one per line (the body is
        // the rest), routed as the server routes them; and the same bytes as an --auth file.
        let lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 4, omittingEmptySubsequences: false)
        func line(_ index: Int) -> String { index < lines.count ? String(decoding: lines[index], as: UTF8.self) : "" }
        var request = LiveViewRequest(method: line(0), path: line(1))
        for pair in line(2).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            request.query[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        request.authorization = line(3).isEmpty ? nil : line(3)
        request.body = lines.count > 4 ? Array(lines[4]) : []
        request.bodyTooLarge = request.body.count > LiveViewServer.bodyLimit
        let router = LiveViewRouter(
            model: FuzzFiles.liveViewModel, broadcast: FuzzFiles.broadcast,
            authentication: line(0).hasPrefix("A") ? BasicAuthentication(accounts: ["ada:lovelace"]) : nil)
        _ = router.route(request) { [] }
        _ = try? ServerAddress(parsing: line(1))
        let path = FuzzFiles.write(bytes, suffix: ".users")
        defer { try? FileManager.default.removeItem(atPath: path) }
        if let accounts = try? BasicAuthentication(file: path) { _ = accounts.allows(request.authorization) }
    },
    "serve-wire": { bytes in
        // Raw bytes on a TCP connection to the real server on loopback (libmicrohttpd's parser,
        // then the router), as any client on the network could send them: written, the sending
        // side shut, and the answer read until the server closes (or 0.1 s: a stream or an event
        // feed never ends, and a client leaving mid-answer is a case too). A first byte 'A' goes
        // to the server that asks for a password.
        guard let servers = FuzzFiles.servers else { return }
        let server = bytes.first == UInt8(ascii: "A") ? servers.withPassword : servers.open
        FuzzFiles.exchange(bytes, port: server.address.port)
    },
    "batch-manifest": { bytes in
        // CSV, and the same bytes as JSON lines (a first line starting with a brace).
        for prefix: [UInt8] in [[], Array("{".utf8)] {
            let path = FuzzFiles.write(prefix + bytes, suffix: ".csv")
            defer { unlink(path) }
            if let manifest = try? BatchManifest(path: path) {
                let shard = (try? BatchShard(parsing: "1/3")) ?? .all
                _ = manifest.rows.filter { shard.contains($0.index) }
            }
        }
        _ = CSVLine.fields(String(decoding: bytes, as: UTF8.self))
    },
    "output-template": { bytes in
        let template = OutputTemplate(pattern: String(decoding: bytes, as: UTF8.self))
        _ = template.name(counter: 12, date: Date(timeIntervalSince1970: 1_660_000_000))
        _ = template.timeResolution
    },
]

/// Scratch files for harnesses whose parser reads a path, and shared codec handles. libFuzzer
/// runs one input at a time on one thread, so the unchecked globals are safe.
enum FuzzFiles {
    /// A DJI metadata message holding only a clip header naming the product schema `file`
    /// (ProductMeta field 1, ClipMeta field 1, ClipMetaHeader field 1: the proto file's name).
    static func djiClipHeader(_ file: String) -> [UInt8] {
        let name = Array(file.utf8)
        let header = [0x0A, UInt8(name.count)] + name
        let clip = [0x0A, UInt8(header.count)] + header
        return [0x0A, UInt8(clip.count)] + clip
    }

    nonisolated(unsafe) static var counter = 0
    nonisolated(unsafe) static let decoder = try? JPEGDecoder()
    nonisolated(unsafe) static let splicer = try? JPEGSplicer()
    /// A broadcast with one frame, for `/snapshot`.
    static let broadcast: FrameBroadcast = {
        let broadcast = FrameBroadcast()
        broadcast.publish([0xFF, 0xD8, 0xFF, 0xD9], capturedAt: Date(timeIntervalSince1970: 0))
        return broadcast
    }()
    /// A view's stand-in for `/state` and `/select`: two points of interest.
    static let liveViewModel = FuzzLiveViewModel()

    /// Two live-view servers on loopback ports of their own, started at the first input: one open,
    /// one asking for a password.
    static let servers: (open: LiveViewServer, withPassword: LiveViewServer)? = {
        func started(_ authentication: BasicAuthentication?) -> LiveViewServer? {
            guard let address = try? ServerAddress(parsing: "127.0.0.1:0") else { return nil }
            let server = LiveViewServer(
                address: address, broadcast: broadcast, model: liveViewModel,
                limits: LiveViewServer.Limits(maxClients: 8, idleTimeoutSeconds: 2), authentication: authentication,
                placeholderDelay: nil)
            return (try? server.start()) != nil ? server : nil
        }
        guard let open = started(nil), let withPassword = started(BasicAuthentication(accounts: ["ada:lovelace"]))
        else { return nil }
        return (open, withPassword)
    }()

    /// Sends `bytes` to 127.0.0.1:`port`, shuts the sending side and reads until the server closes
    /// the connection or 0.1 s pass. (The tests' `RawHTTPClient` does the same, but its module
    /// links Swift Testing, which this harness, built with `-sanitize=fuzzer`, does not.)
    static func exchange(_ bytes: [UInt8], port: UInt16) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return }
        // Acknowledged at once: a delayed ACK would hold each answer's second segment ~40 ms.
        var on: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_QUICKACK, &on, socklen_t(MemoryLayout<Int32>.size))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        shutdown(descriptor, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + .milliseconds(100)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 50)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { return }
        }
    }

    static func write(_ bytes: [UInt8], suffix: String) -> String {
        counter += 1
        let path = NSTemporaryDirectory() + "arcapture-fuzz-\(getpid())-\(counter)\(suffix)"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}

/// The stand-in view of the `serve-request` harness: state with two points, a selection kept.
final class FuzzLiveViewModel: LiveViewModel, @unchecked Sendable {
    private var selection = Set<String>()

    func state(clients: [LiveViewState.Client]) -> LiveViewState {
        LiveViewState(
            phase: "running", format: nil, fps: 0,
            frames: .init(written: 0, annotated: 0, withoutPose: 0, dropped: 0, damaged: 0, published: 1),
            location: nil, navigation: nil, selected: selection.sorted(),
            points: [
                .init(id: "node/1", name: "One", distance: 10, bearing: 90, selected: selection.contains("node/1"))
            ],
            clients: clients)
    }

    func select(_ ids: Set<String>) -> Set<String> {
        let unknown = ids.subtracting(["node/1", "node/2"])
        if unknown.isEmpty { selection = ids }
        return unknown
    }

    func clearSelection() { selection = [] }
}

let selectedTarget: (@Sendable ([UInt8]) -> Void)? = {
    let name = ProcessInfo.processInfo.environment["ARCAPTURE_FUZZ_TARGET"] ?? ""
    return fuzzTargets[name]
}()

/// libFuzzer's entry for a program with a `main` of its own (SwiftPM links an executable's entry
/// point under its module's name, so libFuzzer's `main` is not the one that runs).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("arcapture_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let target = selectedTarget else {
        let names = fuzzTargets.keys.sorted().joined(separator: ", ")
        FileHandle.standardError.write(Data("set ARCAPTURE_FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    target(bytes)
    return 0
}
