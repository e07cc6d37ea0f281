/// The stream header of a YUV4MPEG2 file (what `ffmpeg -f yuv4mpegpipe` writes):
/// `YUV4MPEG2 W1280 H720 F30000:1001 Ip A1:1 C422`.
public struct Y4MHeader: Hashable, Sendable {
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// The frame rate's numerator and denominator (`F30000:1001` is 29.97 fps).
    public var frameRate: (numerator: Int, denominator: Int)
    /// The `C` colour space tag: `420jpeg`, `420paldv`, `420mpeg2`, `420`, `422`, `444`, `mono`.
    public var colorSpace: String
    /// The header line's length including its newline.
    public var length: Int
    /// Whether samples use the full 0–255 range (`XCOLORRANGE=FULL`, as JPEG does); ffmpeg writes
    /// video's limited range (16–235) otherwise.
    public var isFullRange = false

    /// The largest width or height ``parse(_:)`` accepts.
    public static let maximumSide = 32_768

    /// Frames per second.
    public var framesPerSecond: Double { Double(frameRate.numerator) / Double(frameRate.denominator) }

    /// Bytes of pixel data in one frame, for the colour spaces arcapture reads; nil for others.
    public var frameByteCount: Int? {
        let luma = width * height
        let chromaWidth = (width + 1) / 2
        switch colorSpace {
        case "420jpeg", "420paldv", "420mpeg2", "420": return luma + 2 * chromaWidth * ((height + 1) / 2)
        case "422": return luma + 2 * chromaWidth * height
        case "444": return 3 * luma
        case "mono": return luma
        default: return nil
        }
    }

    /// Parses the header at the start of `bytes`.
    ///
    /// - Returns: the header, or a message saying what is wrong with it.
    public static func parse(_ bytes: some Collection<UInt8>) -> Result<Y4MHeader, Y4MHeaderError> {
        guard let newline = bytes.prefix(1024).firstIndex(of: UInt8(ascii: "\n")) else {
            return .failure(
                Y4MHeaderError(problem: "no header line (a Y4M file starts with 'YUV4MPEG2 ' and a newline)"))
        }
        let line = String(decoding: bytes[bytes.startIndex..<newline], as: UTF8.self)
        let fields = line.split(separator: " ")
        guard fields.first == "YUV4MPEG2" else {
            return .failure(Y4MHeaderError(problem: "not a Y4M file (it starts with '\(line.prefix(12))')"))
        }
        var width: Int?
        var height: Int?
        var rate: (Int, Int)?
        var colorSpace = "420jpeg"
        var fullRange = false
        for field in fields.dropFirst() {
            let value = field.dropFirst()
            switch field.first {
            case "W": width = Int(value)
            case "H": height = Int(value)
            case "F":
                let parts = value.split(separator: ":")
                if parts.count == 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]), numerator > 0,
                    denominator > 0
                {
                    rate = (numerator, denominator)
                } else {
                    return .failure(Y4MHeaderError(problem: "frame rate 'F\(value)' is not N:D"))
                }
            // The whole tag: `420jpeg`, `420paldv` and `420mpeg2` are 8-bit 4:2:0 with different chroma
            // siting; deeper ones (`420p10`, `444p12`) are refused below, by name.
            case "C": colorSpace = String(value)
            case "X" where field == "XCOLORRANGE=FULL": fullRange = true
            default: break
            }
        }
        guard let width, let height, width > 0, height > 0 else {
            return .failure(Y4MHeaderError(problem: "the header has no valid W and H"))
        }
        // FFmpeg's own bound on a picture's side (and far beyond any camera's): it keeps the frame's
        // byte count well inside `Int`, whose multiplications trap on overflow.
        guard width <= maximumSide, height <= maximumSide else {
            return .failure(
                Y4MHeaderError(problem: "W\(width) H\(height) is larger than arcapture reads (\(maximumSide) a side)"))
        }
        let header = Y4MHeader(
            width: width, height: height, frameRate: rate ?? (25, 1), colorSpace: colorSpace,
            length: bytes.distance(from: bytes.startIndex, to: newline) + 1, isFullRange: fullRange)
        guard header.frameByteCount != nil else {
            return .failure(Y4MHeaderError(problem: "colour space 'C\(colorSpace)' is not one arcapture reads"))
        }
        return .success(header)
    }

    /// Equal when every field is.
    public static func == (lhs: Y4MHeader, rhs: Y4MHeader) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.frameRate == rhs.frameRate
            && lhs.colorSpace == rhs.colorSpace && lhs.length == rhs.length && lhs.isFullRange == rhs.isFullRange
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(frameRate.numerator)
        hasher.combine(frameRate.denominator)
        hasher.combine(colorSpace)
        hasher.combine(isFullRange)
    }
}
