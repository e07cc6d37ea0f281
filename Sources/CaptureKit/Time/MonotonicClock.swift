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

    private static func read(_ clock: clockid_t) -> Int64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
