import FleetAuthLocking
import Foundation

/// RFC 9110's HTTP-date, the `Date` header's value: read in any of its three forms (the
/// preferred `Sun, 06 Nov 1994 08:49:37 GMT` and the two obsolete ones recipients must still
/// read), written in the preferred one. The app side reads it to estimate the phone's clock
/// offset; the servers write it.
package enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
        "EEE MMM d HH:mm:ss yyyy",
    ]
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// The current second's text, formatted at most once a second.
    private static let current = Locked((second: Int.min, text: ""))

    /// The moment `text` names, or `nil` when it is in none of the three forms.
    package static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    /// The current second in the preferred form, formatted at most once a second (a server
    /// writes it on every answer).
    package static var now: String {
        let second = Int(Date().timeIntervalSince1970)
        return current.withLock { cached in
            if cached.second != second {
                cached = (second, format(epochSeconds: second))
            }
            return cached.text
        }
    }

    /// `epochSeconds` in the preferred form.
    package static func format(epochSeconds: Int) -> String {
        var time = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
