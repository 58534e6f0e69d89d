import CommandSupport
import Foundation

/// The CPU time of one process's threads, grouped by name (a pool's threads share a name but
/// for a number at its end: `NIO-ELT-3-#1`, `NIO-ELT-3-#2`), from Linux's
/// `/proc/PID/task/*/stat`: which of a server's parts a change of work landed on.
struct ThreadGroupCPU: Sendable {
    /// Each thread's group and user and system time so far, in seconds, by thread id.
    let threads: [String: (group: String, seconds: Double)]

    /// The threads of `pid` now; none where there is no `/proc` (macOS) or the process ended.
    static func read(pid: pid_t) -> ThreadGroupCPU {
        let folder = "/proc/\(pid)/task"
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var threads: [String: (group: String, seconds: Double)] = [:]
        for id in ids {
            guard let stat = ProcessStat.read("\(folder)/\(id)/stat") else { continue }
            threads[id] = (groupName(stat.name), stat.cpuSeconds)
        }
        return ThreadGroupCPU(threads: threads)
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

    /// The time each group used since `earlier`, in seconds: a thread there then counts what
    /// it used since, a thread started in between all it used, and a thread that ended in
    /// between is not counted (a dispatch worker ends after some seconds idle).
    func since(_ earlier: ThreadGroupCPU) -> [String: Double] {
        threads.reduce(into: [:]) { spent, entry in
            let used = entry.value.seconds - (earlier.threads[entry.key]?.seconds ?? 0)
            if used > 0 { spent[entry.value.group, default: 0] += used }
        }
    }
}
