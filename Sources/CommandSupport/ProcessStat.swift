import Foundation

/// A process's or thread's line in Linux's `/proc/PID/stat` (or `/proc/PID/task/TID/stat`):
/// its name and the CPU time it has used.
package struct ProcessStat: Sendable, Equatable {
    /// The name in parentheses (Linux keeps at most 15 characters).
    package let name: String
    /// User and system time, in seconds.
    package let cpuSeconds: Double

    /// Reads the file at `path`; `nil` when it is not there (the process ended, or no `/proc`)
    /// or not in the expected form.
    package static func read(_ path: String) -> ProcessStat? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return ProcessStat(parsing: text)
    }

    /// Parses a stat line; `nil` when it is not in the expected form.
    package init?(parsing text: String) {
        // The name may hold spaces and parentheses: it runs from the first "(" to the last ")".
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close else {
            return nil
        }
        // After "(name) ": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        name = String(text[text.index(after: open)..<close])
        cpuSeconds = (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
