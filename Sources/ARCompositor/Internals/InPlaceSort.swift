/// Sorting without a heap allocation, for per-frame work: the standard library's stable sort takes
/// a scratch buffer for its merges, and a stream of frames should allocate nothing.
///
/// Heapsort: O(n log n) whatever the input, in place, not stable; callers that need a total order
/// break ties themselves (distances then identifiers, for instance).
enum InPlaceSort {
    /// Sorts `elements` in place so that `areInIncreasingOrder` holds between neighbours.
    static func sort<Element>(_ elements: inout [Element], by areInIncreasingOrder: (Element, Element) -> Bool) {
        let count = elements.count
        guard count > 1 else { return }
        elements.withUnsafeMutableBufferPointer { buffer in
            func siftDown(_ start: Int, _ end: Int) {
                var root = start
                while 2 * root + 1 < end {
                    var child = 2 * root + 1
                    if child + 1 < end, areInIncreasingOrder(buffer[child], buffer[child + 1]) { child += 1 }
                    guard areInIncreasingOrder(buffer[root], buffer[child]) else { return }
                    buffer.swapAt(root, child)
                    root = child
                }
            }
            var start = count / 2 - 1
            while start >= 0 {
                siftDown(start, count)
                start -= 1
            }
            var end = count - 1
            while end > 0 {
                buffer.swapAt(0, end)
                siftDown(0, end)
                end -= 1
            }
        }
    }
}
