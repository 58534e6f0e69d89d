import Foundation

/// A proto3 JSON duration: seconds with an `s`, e.g. `"300s"` or `"1.5s"`.
struct ProtoDuration {
    /// The duration.
    let duration: Duration

    /// The longest duration read, in whole seconds (about 3,170 years; Google's limit is
    /// 315,576,000,000 s, a bound no staleness comes near).
    static let maximumSeconds: Int64 = 99_999_999_999

    /// The duration of `text` (digits, at most nine decimals, `s`, optionally negative), or
    /// `nil` when it is not one or is longer than ``maximumSeconds``.
    init?(text: String) {
        guard text.hasSuffix("s") else { return nil }
        var number = text.dropLast()
        let negative = number.hasPrefix("-")
        if negative { number = number.dropFirst() }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count == 2 ? parts[1] : ""
        let isDigits = { (text: Substring) in text.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard !whole.isEmpty, isDigits(whole), isDigits(fraction), parts.count == 1 || (1...9).contains(fraction.utf8.count),
            let seconds = Int64(whole), seconds <= Self.maximumSeconds
        else { return nil }
        let nanoseconds = Int64(fraction + String(repeating: "0", count: 9 - fraction.utf8.count)) ?? 0
        let magnitude = Duration.seconds(seconds) + .nanoseconds(nanoseconds)
        duration = negative ? .zero - magnitude : magnitude
    }
}
