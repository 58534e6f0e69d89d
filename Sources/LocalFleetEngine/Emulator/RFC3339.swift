import Foundation

/// RFC 3339 date-times (`2026-01-02T03:04:05Z`, `…05.5+01:00`), read strictly: every field
/// within its range (a minute of 99 is refused, not carried over), a day that exists in its
/// month, any offset from -23:59 to +23:59, as JSON Schema's `date-time` has them.
enum RFC3339 {
    /// The shape, made for each read: a `Regex` is not `Sendable`.
    private static var shape:
        Regex<
            (
                Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring?, Substring?,
                Substring?, Substring?, Substring?
            )
        >
    {
        /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/
    }

    /// The moment `text` names, or `nil` when it is not an RFC 3339 date-time.
    static func date(_ text: String) -> Date? {
        guard let match = text.wholeMatch(of: shape) else { return nil }
        let (year, month, day) = (Int(match.1)!, Int(match.2)!, Int(match.3)!)
        let (hour, minute, second) = (Int(match.4)!, Int(match.5)!, Int(match.6)!)
        guard (1...12).contains(month), hour < 24, minute < 60, second < 61 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: 1)
        guard let first = calendar.date(from: components), let days = calendar.range(of: .day, in: .month, for: first),
            days.contains(day)
        else {
            return nil
        }
        var offset = 0
        if match.8 == nil {
            let (hours, minutes) = (Int(match.10!)!, Int(match.11!)!)
            guard hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (match.9 == "-" ? -1 : 1)
        }
        let fraction = match.7.map { Double("0" + $0)! } ?? 0
        let seconds =
            first.timeIntervalSince1970
            + Double((day - 1) * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset)
        return Date(timeIntervalSince1970: seconds + fraction)
    }
}
