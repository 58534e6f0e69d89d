import Foundation

/// Human forms of times for the command line.
enum TimeText {
    /// `2026-11-21 16:30:00 UTC`.
    static func utc(epochSeconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(epochSeconds)))
    }

    /// `1h 2m 3s`, `45s`.
    static func span(seconds: Int64) -> String {
        let value = abs(seconds)
        let hours = value / 3600, minutes = value % 3600 / 60, rest = value % 60
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours)h") }
        if minutes > 0 { parts.append("\(minutes)m") }
        if rest > 0 || parts.isEmpty { parts.append("\(rest)s") }
        return parts.joined(separator: " ")
    }
}
