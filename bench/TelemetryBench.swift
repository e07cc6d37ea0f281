import Foundation
import Positioning

/// Reading an hour of DJI telemetry (issue 40's limit: an hour's subtitles in under a second): a
/// 108,000-cue `.SRT`, 30 cues a second in the multi-line layout of the Mavic 3 Enterprise and
/// Matrice 300 RTK (`samples/dji-srt/ruz76/DJI.SRT`), its values moving along a line so that
/// every cue is different. The limit is the peer: one second.
enum TelemetryBench {
    /// The file: each cue as the real sample writes it, the time, clock and values advanced.
    static func subtitles(cues: Int) -> Data {
        var text = ""
        text.reserveCapacity(cues * 520)
        for index in 0..<cues {
            let milliseconds = index * 1000 / 30
            let next = (index + 1) * 1000 / 30
            func timing(_ value: Int) -> String {
                String(
                    format: "%02d:%02d:%02d,%03d", value / 3_600_000, value / 60_000 % 60, value / 1000 % 60,
                    value % 1000)
            }
            let clock = 7 + milliseconds / 1000
            text += """
                \(index + 1)
                \(timing(milliseconds)) --> \(timing(next))
                <font size="28">FrameCnt: \(index + 1), DiffTime: 33ms
                2024-04-23 \(String(format: "%02d:%02d:%02d.%03d", 14 + clock / 3600, clock / 60 % 60, clock % 60, milliseconds % 1000))
                [iso: 110] [shutter: 1/200.0] [fnum: 2.8] [ev: 0] [focal_len: 24.00] [dzoom: 1.00] 
                [latitude: \(String(format: "%.6f", 49.379442 + Double(index) * 1e-6))] [longitude: \(String(format: "%.6f", 15.032166 + Double(index) * 1e-6))] [rel_alt: 43.225 abs_alt: 758.949] 
                [drone_speedx: 0.0 drone_speedy: 0.0 drone_speedz: 0.0] 
                [drone_yaw: -0.7 drone_pitch: -1.2 drone_roll: 2.7] 
                [gb_yaw: \(String(format: "%.1f", Double(index % 3600) / 10 - 180)) gb_pitch: -86.7 gb_roll: 0.0] 

                0
                [ae_meter_md : 0] [dzoom_ratio: 10000, delta:0] [color_md : default] [ct : 5256] 
                </font>


                """
        }
        return Data(text.utf8)
    }

    /// Reads the hour three times and prints the median against the limit.
    static func report() throws {
        let data = subtitles(cues: 108_000)
        var fixes = 0
        let seconds = try median(repetitions: 3, warmUp: 1) {
            fixes = try DJISubtitleTrack(data: data, file: "hour.SRT").track.fixes.count
        }
        print(
            String(
                format: "  DJI .SRT, an hour at 30 cues/s (108,000 cues, %.1f MB): %.3f s for %d fixes; "
                    + "ratio to the 1 s limit %.2f (target at most 1)",
                Double(data.count) / 1e6, seconds, fixes, seconds))
    }
}
