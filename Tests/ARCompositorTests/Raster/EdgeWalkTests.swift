import CRasterKernels
import Testing

/// The C edge walk (`craster_accumulate_edge`) against the Swift one it replaced, written out
/// here as it was: same contributions to the last 1/65536th, same spans, for edges at every slope.
@Suite("Edge walk")
struct EdgeWalkTests {
    /// The accumulation buffer and row spans after some edges.
    private struct Walked: Equatable {
        var buffer: [Int32]
        var starts: [Int32]
        var ends: [Int32]

        init(rowLength: Int, rows: Int) {
            buffer = [Int32](repeating: 0, count: rowLength * rows + 2)
            starts = [Int32](repeating: Int32(rowLength), count: rows)
            ends = [Int32](repeating: 0, count: rows)
        }
    }

    @Test("the C walk adds what the Swift walk added, for 2,000 random edges and the awkward ones")
    func matchesSwift() {
        let (rowLength, rows) = (66, 40)
        let limit = Double(rowLength - 2)
        var generator = SystemRandomNumberGenerator()
        var edges: [(SIMD2<Double>, SIMD2<Double>)] = [
            (SIMD2(3, 1), SIMD2(3, 30)),  // vertical
            (SIMD2(0, 5.5), SIMD2(64, 5.9)),  // nearly horizontal, the whole width
            (SIMD2(10.25, -7), SIMD2(20.75, 12.5)),  // from above the box
            (SIMD2(30, 35), SIMD2(40, 90)),  // past the bottom
            (SIMD2(5.5, 2.0), SIMD2(5.5, 2.0)),  // a point
            (SIMD2(0.99, 3.2), SIMD2(1.01, 3.4)),  // a hair wide
            (SIMD2(12, 9), SIMD2(7, 9)),  // horizontal
        ]
        for _ in 0..<2000 {
            func point() -> SIMD2<Double> {
                SIMD2(
                    Double.random(in: 0...limit, using: &generator),
                    Double.random(in: -10...Double(rows + 10), using: &generator))
            }
            edges.append((point(), point()))
        }
        var c = Walked(rowLength: rowLength, rows: rows)
        var swift = c
        for (start, end) in edges {
            c.buffer.withUnsafeMutableBufferPointer { buffer in
                c.starts.withUnsafeMutableBufferPointer { starts in
                    c.ends.withUnsafeMutableBufferPointer { ends in
                        craster_accumulate_edge(
                            buffer.baseAddress, Int32(rowLength), Int32(rows), starts.baseAddress, ends.baseAddress,
                            start.x, start.y, end.x, end.y)
                    }
                }
            }
            Self.accumulate(start, end, rowLength: rowLength, rows: rows, into: &swift)
        }
        #expect(c == swift)
        #expect(c.buffer.contains { $0 != 0 })
    }

    /// `value` rounded to the nearest integer, halves away from zero.
    private static func nearest(_ value: Double) -> Int32 { Int32(value >= 0 ? value + 0.5 : value - 0.5) }

    /// The Swift edge walk (font-rs's `draw_line`) that `craster_accumulate_edge` replaced.
    private static func accumulate(
        _ start: SIMD2<Double>, _ end: SIMD2<Double>, rowLength: Int, rows: Int, into walked: inout Walked
    ) {
        guard start.y != end.y else { return }
        let (p0, p1, direction): (SIMD2<Double>, SIMD2<Double>, Double) =
            start.y < end.y ? (start, end, 1) : (end, start, -1)
        let slope = (p1.x - p0.x) / (p1.y - p0.y)
        var x = p0.x
        var top = p0.y
        if top < 0 {
            x -= top * slope
            top = 0
        }
        let bottom = min(p1.y, Double(rows))
        guard top < bottom else { return }
        var row = Int(top)
        while Double(row) < bottom {
            let rowStart = row * rowLength
            let dy = min(Double(row + 1), bottom) - max(Double(row), top)
            let xNext = x + slope * dy
            let d = dy * direction * 65536
            let total = Self.nearest(d)
            let limit = Double(rowLength - 2)
            let left = max(0, min(limit, min(x, xNext)))
            let right = max(0, min(limit, max(x, xNext)))
            let leftIndex = Int(left)
            let leftFloor = Double(leftIndex)
            let rightIndex = Int(right) + (Double(Int(right)) < right ? 1 : 0)
            let rightCeil = Double(rightIndex)
            walked.starts[row] = min(walked.starts[row], Int32(leftIndex))
            walked.ends[row] = max(walked.ends[row], Int32(rightIndex + 1))
            var added: Int32 = 0
            func add(_ column: Int, _ value: Double) {
                let amount = Self.nearest(value)
                walked.buffer[rowStart + column] &+= amount
                added &+= amount
            }
            if rightIndex <= leftIndex + 1 {
                let middle = 0.5 * (left + right) - leftFloor
                add(leftIndex, d - d * middle)
                walked.buffer[rowStart + leftIndex + 1] &+= total &- added
            } else {
                let s = 1 / (right - left)
                let leftFraction = left - leftFloor
                let a0 = 0.5 * s * (1 - leftFraction) * (1 - leftFraction)
                let rightFraction = right - rightCeil + 1
                let am = 0.5 * s * rightFraction * rightFraction
                add(leftIndex, d * a0)
                if rightIndex == leftIndex + 2 {
                    add(leftIndex + 1, d * (1 - a0 - am))
                } else {
                    let a1 = s * (1.5 - leftFraction)
                    add(leftIndex + 1, d * (a1 - a0))
                    let step = Self.nearest(d * s)
                    for column in (leftIndex + 2)..<(rightIndex - 1) { walked.buffer[rowStart + column] &+= step }
                    added &+= step &* Int32(rightIndex - 1 - (leftIndex + 2))
                    let a2 = a1 + Double(rightIndex - leftIndex - 3) * s
                    add(rightIndex - 1, d * (1 - a2 - am))
                }
                walked.buffer[rowStart + rightIndex] &+= total &- added
            }
            x = xNext
            row += 1
        }
    }
}
