import ArcaptureCore
import Foundation

/// A geoid model as a grid of heights: how far mean sea level (the geoid) lies above the WGS84
/// ellipsoid, N, so that a height above sea level plus N is a height on the ellipsoid, the one
/// poses and POIs use. GPS receivers, GPX files, EXIF and OpenStreetMap give heights above sea
/// level; N is -107 to +85 m over the Earth (+18 m in Helsinki, +45 m in Istria), too much to
/// ignore when a label's height on a mountain matters.
///
/// Read from a PROJ vertical grid in GTX form: the EGM96 15-minute grid (`egm96_15.gtx`, 4 MB, in
/// Debian's `proj-data`, which the .deb recommends), found in `PROJ_DATA`, `PROJ_LIB` or
/// `/usr/share/proj` (``shared``). Heights between the grid's nodes are interpolated bilinearly,
/// as PROJ's own `vgridshift` does, so a height converted here equals PROJ's (the tests hold it
/// to a millimetre against `cct`). A grid file is data PROJ publishes, read here in 30 lines,
/// rather than PROJ linked for one lookup.
public struct GeoidGrid: Sendable {
    /// Why a grid cannot be used.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, naming the file: "/usr/share/proj/egm96_15.gtx: 12 bytes, not a GTX grid".
        public let description: String
    }

    /// The file read.
    public let file: String
    /// The model's name, for messages: `EGM96` for `egm96_15.gtx`.
    public let model: String
    private let south: Double
    private let west: Double
    private let latitudeStep: Double
    private let longitudeStep: Double
    private let rows: Int
    private let columns: Int
    /// Whether the columns go all round the Earth (the last one's east neighbour is the first).
    private let wraps: Bool
    /// N at each node, in metres, row by row from the south.
    private let heights: [Float]

    /// Reads a GTX grid: a 40-byte big-endian header (the south-west node's latitude and
    /// longitude, the steps between nodes in degrees, the rows and columns), then one big-endian
    /// 32-bit float per node, row by row from the south.
    ///
    /// - Throws: ``Problem`` when the file cannot be read or is not a GTX grid.
    public init(gtxFile path: String) throws(Problem) {
        let data: Data
        do {
            data = try InputFile.read(path)
        } catch {
            throw Problem(description: error.description)
        }
        func double(at offset: Int) -> Double {
            Double(
                bitPattern: data.withUnsafeBytes {
                    UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                })
        }
        func integer(at offset: Int) -> Int {
            Int(data.withUnsafeBytes { Int32(bigEndian: $0.loadUnaligned(fromByteOffset: offset, as: Int32.self)) })
        }
        guard data.count >= 40 else { throw Problem(description: "\(path): \(data.count) bytes, not a GTX grid") }
        let (south, west, latitudeStep, longitudeStep) = (double(at: 0), double(at: 8), double(at: 16), double(at: 24))
        let (rows, columns) = (integer(at: 32), integer(at: 36))
        guard rows >= 2, columns >= 2, rows <= 100_000, columns <= 100_000,
            latitudeStep > 0, longitudeStep > 0, south >= -90, south + Double(rows - 1) * latitudeStep <= 90 + 1e-9,
            data.count == 40 + rows * columns * 4
        else {
            throw Problem(
                description:
                    "\(path): not a GTX grid (\(rows)×\(columns) nodes in a header of a \(data.count)-byte file)")
        }
        heights = data.withUnsafeBytes { bytes in
            (0..<(rows * columns)).map { index in
                Float(
                    bitPattern: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 40 + index * 4, as: UInt32.self)))
            }
        }
        file = path
        let name = (path as NSString).lastPathComponent.lowercased()
        model = name.hasPrefix("egm96") ? "EGM96" : name.hasPrefix("egm08") ? "EGM2008" : name
        self.south = south
        // West kept in -180…180, so a longitude is found with one modulo.
        self.west = west
        self.latitudeStep = latitudeStep
        self.longitudeStep = longitudeStep
        self.rows = rows
        self.columns = columns
        wraps = abs(Double(columns) * longitudeStep - 360) < 1e-9
    }

    /// N at a place: metres from the ellipsoid up to mean sea level (negative where sea level is
    /// below the ellipsoid, as south of India). Outside a regional grid, the nearest edge's.
    public func separation(latitude: Double, longitude: Double) -> Double {
        let row = min(max((latitude - south) / latitudeStep, 0), Double(rows - 1))
        var column = (longitude - west) / longitudeStep
        if wraps {
            column = column.truncatingRemainder(dividingBy: Double(columns))
            if column < 0 { column += Double(columns) }
        } else {
            column = min(max(column, 0), Double(columns - 1))
        }
        let (row0, column0) = (min(Int(row), rows - 2), min(Int(column), wraps ? columns - 1 : columns - 2))
        let column1 = wraps ? (column0 + 1) % columns : column0 + 1
        let (dy, dx) = (row - Double(row0), column - Double(column0))
        func node(_ r: Int, _ c: Int) -> Double { Double(heights[r * columns + c]) }
        let southEdge = node(row0, column0) * (1 - dx) + node(row0, column1) * dx
        let northEdge = node(row0 + 1, column0) * (1 - dx) + node(row0 + 1, column1) * dx
        return southEdge * (1 - dy) + northEdge * dy
    }

    /// Where PROJ's grids are looked for, in order: each folder of `PROJ_DATA`, then of `PROJ_LIB`
    /// (its older name), then Debian's and a local install's.
    public static var searchFolders: [String] {
        let environment = ProcessInfo.processInfo.environment
        let given = ["PROJ_DATA", "PROJ_LIB"].flatMap { (environment[$0] ?? "").split(separator: ":").map(String.init) }
        return given + ["/usr/share/proj", "/usr/local/share/proj"]
    }

    /// The grid files tried: EGM96 at 15 minutes, as proj-data ships it.
    public static let fileNames = ["egm96_15.gtx"]

    /// The process's geoid: the first grid found (read once, on first use), or why there is none.
    public static let shared: Result<GeoidGrid, Problem> = {
        for folder in searchFolders {
            for name in fileNames {
                let path = (folder as NSString).appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: path) else { continue }
                return Result { () throws(Problem) in try GeoidGrid(gtxFile: path) }
            }
        }
        return .failure(
            Problem(
                description: "no geoid grid (egm96_15.gtx) in \(searchFolders.joined(separator: ", ")): "
                    + "install proj-data (Debian), or give the geoid separation"))
    }()

    /// Why there is no process geoid (``shared`` failed), for a note; nil when there is one.
    public static var unavailableReason: String? {
        if case .failure(let problem) = shared { return problem.description }
        return nil
    }
}
