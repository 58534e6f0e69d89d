import Foundation
import Locking

/// The HTTP `Date` header's value (IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`) for now,
/// formatted at most once a second.
///
/// Clients read it: FleetTokenProvider estimates the phone's clock offset from it.
package enum HTTPDate {
    private static let cache = Locked((second: Int.min, text: ""))
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current second, as the header writes it.
    package static var now: String {
        let second = Int(Date().timeIntervalSince1970)
        return cache.withLock { cached in
            if cached.second != second {
                cached = (second, format(epochSeconds: second))
            }
            return cached.text
        }
    }

    /// `epochSeconds` as IMF-fixdate.
    static func format(epochSeconds: Int) -> String {
        var time = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec)) GMT"
    }
}
