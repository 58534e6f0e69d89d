import CommandSupport
import Foundation

/// The CPU time of one process's threads, grouped by name (a pool's threads share a name but
/// for a number at its end: `NIO-ELT-3-#1`, `NIO-ELT-3-#2`), from Linux's
/// `/proc/PID/task/*/stat`: which of a server's parts a change of work landed on.
struct ThreadGroupCPU: Sendable, Equatable {
    /// Each group's user and system time, in seconds, by name.
    let seconds: [String: Double]

    /// The threads of `pid` now; empty where there is no `/proc` (macOS) or the process ended.
    static func read(pid: pid_t) -> ThreadGroupCPU {
        let folder = "/proc/\(pid)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var seconds: [String: Double] = [:]
        for thread in threads {
            guard let stat = ProcessStat.read("\(folder)/\(thread)/stat") else { continue }
            seconds[groupName(stat.name), default: 0] += stat.cpuSeconds
        }
        return ThreadGroupCPU(seconds: seconds)
    }

    /// `name` without the number that tells a pool's threads apart (`NIO-ELT-3-#1` →
    /// `NIO-ELT-3`, `TP-#0` → `TP`).
    static func groupName(_ name: String) -> String {
        var trimmed = Substring(name)
        while let last = trimmed.last, last.isNumber { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix("#") { trimmed = trimmed.dropLast() }
        if trimmed.hasSuffix("-") { trimmed = trimmed.dropLast() }
        return trimmed.isEmpty ? name : String(trimmed)
    }

    /// The time each group used since `earlier`, in seconds; groups that used none are left
    /// out, and so is the time of threads that ended in between.
    func since(_ earlier: ThreadGroupCPU) -> [String: Double] {
        seconds.reduce(into: [:]) { spent, entry in
            let used = entry.value - (earlier.seconds[entry.key] ?? 0)
            if used > 0 { spent[entry.key] = used }
        }
    }
}
