/// The body of a response that never ends by itself (`/stream`'s frames, `/events`' messages):
/// libmicrohttpd asks it for bytes on the server's polling thread, and it suspends its connection
/// when it has none, to be resumed from another thread when it has.
protocol StreamingResponse: AnyObject, Sendable {
    /// Copies the next bytes into `buffer` and returns how many; 0 after suspending the
    /// connection; `arcapture_mhd_end_of_stream` when the stream is over. Polling thread only.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int
    /// The connection is closed and the response freed: nothing is sent any more. Polling thread only.
    func ended()
}
