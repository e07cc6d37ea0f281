/// One packet of one stream of a video file, as `MediaContainer` read it.
struct MediaPacket: Sendable {
    /// When it is presented, in seconds from the stream's start; nil when the container says not.
    var time: Double?
    /// How long it lasts, in seconds; nil when the container says not.
    var duration: Double?
    /// Its bytes, as stored.
    var bytes: [UInt8]
}
