import ArcaptureCore
import Foundation

/// The information banner's text, from a template with tokens, as fswebcam's `--title`/`--info`
/// and rpicam's annotate stage write theirs.
///
/// Tokens: `{time}` (local time as `%Y-%m-%d %H:%M:%S`, the zone from `TZ`) or `{time:FORMAT}`
/// with any strftime(3) format, `{lat}` and `{lon}` (6 decimals, about 0.1 m), `{alt}` (metres or
/// feet), `{heading}` (whole degrees), `{speed}` (km/h or mph), `{frame}`. `{{` and `}}` are
/// literal braces. Unknown tokens are an error when the template is read, not a surprise in every
/// frame.
public struct BannerTemplate: Hashable, Sendable {
    enum Piece: Hashable, Sendable {
        case text(String)
        case time(String)
        case latitude, longitude, altitude, heading, speed, frame
    }

    /// The template as given.
    public let source: String
    let pieces: [Piece]

    /// The tokens a template may use.
    public static let tokens = ["time", "lat", "lon", "alt", "heading", "speed", "frame"]

    /// Parses `source`.
    ///
    /// - Throws: ``BannerTemplateError`` naming an unknown token or an unclosed brace, with its
    ///   position.
    public init(_ source: String) throws(BannerTemplateError) {
        self.source = source
        var pieces: [Piece] = []
        var text = ""
        var index = source.startIndex
        while index < source.endIndex {
            let character = source[index]
            let next = source.index(after: index)
            if character == "}" {
                guard next < source.endIndex, source[next] == "}" else {
                    throw BannerTemplateError(
                        template: source, problem: "a lone '}' (write '}}' for a brace)",
                        offset: source.distance(from: source.startIndex, to: index))
                }
                text.append("}")
                index = source.index(after: next)
                continue
            }
            guard character == "{" else {
                text.append(character)
                index = next
                continue
            }
            if next < source.endIndex, source[next] == "{" {
                text.append("{")
                index = source.index(after: next)
                continue
            }
            guard let close = source[next...].firstIndex(of: "}") else {
                throw BannerTemplateError(
                    template: source, problem: "'{' is not closed",
                    offset: source.distance(from: source.startIndex, to: index))
            }
            let token = source[next..<close]
            let name = token.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            let argument = token.firstIndex(of: ":").map { String(token[token.index(after: $0)...]) }
            let piece: Piece
            switch (name, argument) {
            case ("time", let format): piece = .time(format ?? "%Y-%m-%d %H:%M:%S")
            case ("lat", nil): piece = .latitude
            case ("lon", nil): piece = .longitude
            case ("alt", nil): piece = .altitude
            case ("heading", nil): piece = .heading
            case ("speed", nil): piece = .speed
            case ("frame", nil): piece = .frame
            default:
                let known = Self.tokens.map { "{\($0)}" }.joined(separator: ", ")
                throw BannerTemplateError(
                    template: source,
                    problem: argument != nil && Self.tokens.contains(name)
                        ? "{\(name)} takes no format (only {time:FORMAT} does)"
                        : "unknown token {\(token)} (known: \(known), {time:FORMAT})",
                    offset: source.distance(from: source.startIndex, to: index))
            }
            if !text.isEmpty {
                pieces.append(.text(text))
                text = ""
            }
            pieces.append(piece)
            index = source.index(after: close)
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
    }

    /// The banner for one frame.
    public func render(_ values: BannerValues, units: DistanceUnits = .metric) -> String {
        var result = ""
        for piece in pieces {
            switch piece {
            case .text(let text): result += text
            case .time(let format):
                result += values.time.map { LocalTime.format(format, $0, utcOffset: values.utcOffset) } ?? "–"
            case .latitude: result += values.latitude.map { String(format: "%.6f", $0) } ?? "–"
            case .longitude: result += values.longitude.map { String(format: "%.6f", $0) } ?? "–"
            case .altitude:
                result +=
                    values.altitude.map {
                        units == .metric ? String(format: "%.1f m", $0) : String(format: "%.0f ft", $0 / 0.3048)
                    } ?? "–"
            case .heading:
                result +=
                    values.heading.map { "\(Int($0.truncatingRemainder(dividingBy: 360).rounded()) % 360)°" } ?? "–"
            case .speed:
                result +=
                    values.speed.map {
                        units == .metric
                            ? String(format: "%.0f km/h", $0 * 3.6) : String(format: "%.0f mph", $0 * 2.236_936)
                    } ?? "–"
            case .frame: result += values.frame.map(String.init) ?? "–"
            }
        }
        return result
    }
}
