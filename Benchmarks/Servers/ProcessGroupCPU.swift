import Foundation

/// The CPU time of the processes whose name contains a word (`chrom`: headless Chromium's
/// browser, renderer and GPU processes), from Linux's `/proc/PID/stat`: what another program
/// on the same machine took while a benchmark ran.
enum ProcessGroupCPU {
    /// Their user and system time so far, in seconds; `nil` where there is no `/proc` (macOS).
    static func seconds(ofProcessesNamed word: String) -> Double? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        var ticks = 0.0
        for pid in entries where pid.allSatisfy(\.isNumber) {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                stat[stat.index(after: open)..<close].contains(word)
            else { continue }
            // After "(name) ": state is field 3; utime and stime are fields 14 and 15.
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            ticks += user + system
        }
        return ticks / ticksPerSecond
    }
}
