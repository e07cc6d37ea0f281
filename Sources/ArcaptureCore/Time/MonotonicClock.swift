import Glibc

/// CLOCK_MONOTONIC and CLOCK_REALTIME readings in nanoseconds.
///
/// V4L2 timestamps are on CLOCK_MONOTONIC. Swift's `ContinuousClock` uses CLOCK_BOOTTIME on Linux,
/// which drifts from CLOCK_MONOTONIC across a suspend, so frame times are compared with this clock.
public enum MonotonicClock {
    /// Now on CLOCK_MONOTONIC.
    public static func nanoseconds() -> Int64 { read(CLOCK_MONOTONIC) }

    /// Now on CLOCK_REALTIME (nanoseconds since 1970).
    public static func realtimeNanoseconds() -> Int64 { read(CLOCK_REALTIME) }

    /// CLOCK_REALTIME minus CLOCK_MONOTONIC now: the realtime reading between two monotonic ones,
    /// against their midpoint, so the offset is off by at most half the time the three reads took
    /// (a pre-emption between two reads widens that, never biases it).
    public static func realtimeOffsetNanoseconds() -> Int64 {
        let before = nanoseconds()
        let realtime = realtimeNanoseconds()
        let after = nanoseconds()
        return realtime - (before + (after - before) / 2)
    }

    private static func read(_ clock: clockid_t) -> Int64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
