/// What a ``LiveViewServer`` keeps of one request while libmicrohttpd hands it over in pieces:
/// the body read so far, up to the limit.
///
/// - Important: Used only on the server's polling thread.
final class RequestContext {
    var body: [UInt8] = []
    var bodyTooLarge = false
}
