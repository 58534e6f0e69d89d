import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPURLResponse {
    /// The server's clock when it answered, from the `Date` header (RFC 9110's HTTP-date in
    /// any of its three forms); `nil` without one or when it cannot be read.
    var serverDate: Date? {
        value(forHTTPHeaderField: "Date").flatMap(HTTPDate.parse)
    }
}

/// RFC 9110's HTTP-date: the preferred `Sun, 06 Nov 1994 08:49:37 GMT` and the two obsolete
/// forms recipients must still read.
enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
        "EEE MMM d HH:mm:ss yyyy",
    ]

    /// The moment `text` names, or `nil` when it is in none of the three forms.
    static func parse(_ text: String) -> Date? {
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
}
