import CaptureKit
import Footage
import Foundation
import JPEGKit

extension FootageInfo {
    /// Footage described from what `reader` has seen, without reading ahead: a folder's listing, a
    /// Y4M file's size (its frame count), a video's stream, an MJPEG stream's first frame (its
    /// count estimated from the file's size, its EXIF time the start).
    ///
    /// - Parameters:
    ///   - reader: the footage, opened.
    ///   - path: its path as given (`-` is stdin).
    ///   - first: the first frame read from it.
    init(describing reader: FootageReader, path: String, first: FootageFrame?) {
        var frames = reader.folderFileCount ?? 0
        if let header = reader.y4mHeader, let frameBytes = header.frameByteCount, path != "-",
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
        {
            frames = (size - header.length) / (frameBytes + 6)  // "FRAME\n" before each frame
        } else if reader.kind == .mjpeg, path != "-", case .jpeg(let bytes) = first?.content, !bytes.isEmpty,
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
        {
            // An estimate from the first frame's size: counting exactly would mean reading the
            // whole file before starting.
            frames = max(1, Int((Double(size) / Double(bytes.count)).rounded()))
        }
        // A folder's photos come with their EXIF time read; a stream's first JPEG is read here.
        var start = first?.captureTime
        if start == nil, reader.kind == .mjpeg, case .jpeg(let bytes) = first?.content {
            start = EXIFReader.captureTime(inJPEG: bytes)
        }
        if let video = reader.video { frames = video.frameCount }
        self.init(
            path: path == "-" ? "stdin" : path, kind: reader.kind, frameCount: frames,
            framesPerSecond: reader.y4mHeader?.framesPerSecond ?? reader.video?.framesPerSecond,
            width: reader.y4mHeader?.width ?? reader.video?.width,
            height: reader.y4mHeader?.height ?? reader.video?.height,
            metadataStart: start, notes: [])
    }
}
