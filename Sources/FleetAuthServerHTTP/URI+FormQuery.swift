import Foundation
import HummingbirdCore

extension URI {
    /// The query's parameters as HTML forms, Python's `requests` and Google's REST APIs encode
    /// them: `+` is a space (`%2B` a plus), names and values percent-decoded. Hummingbird's
    /// `queryParameters` keeps a `+` as it is and leaves names encoded, so `tripId=a+b` would
    /// name a trip `a+b` where the client meant `a b`. A pair that is not valid
    /// percent-encoding keeps the text as sent.
    package var formQueryParameters: FlatDictionary<Substring, Substring> {
        guard let query, !query.isEmpty else { return .init() }
        func decoded(_ text: Substring) -> Substring {
            // Nearly every name and value is plain (`updateMask=lastLocation`): no copy then.
            guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return text }
            let spaced = String(
                decoding: text.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            return (spaced.removingPercentEncoding ?? spaced)[...]
        }
        return .init(
            query.split(separator: "&").map { pair in
                guard let equals = pair.firstIndex(of: "=") else { return (key: decoded(pair), value: "") }
                return (key: decoded(pair[..<equals]), value: decoded(pair[pair.index(after: equals)...]))
            })
    }
}
