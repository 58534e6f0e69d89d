import CommandSupport
import Foundation

/// The CPU time of the processes whose name contains a word (`chrom`: headless Chromium's
/// browser, renderer and GPU processes), from Linux's `/proc/PID/stat`: what another program
/// on the same machine took while a benchmark ran.
enum ProcessGroupCPU {
    /// Their user and system time so far, in seconds; `nil` where there is no `/proc` (macOS).
    static func seconds(ofProcessesNamed word: String) -> Double? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        var seconds = 0.0
        for pid in entries where pid.allSatisfy(\.isNumber) {
            guard let stat = ProcessStat.read("/proc/\(pid)/stat"), stat.name.contains(word) else { continue }
            seconds += stat.cpuSeconds
        }
        return seconds
    }
}
