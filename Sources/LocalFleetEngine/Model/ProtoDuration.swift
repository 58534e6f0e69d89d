import Foundation

/// A proto3 JSON duration: seconds with an `s`, e.g. `"300s"` or `"1.5s"`.
package struct ProtoDuration: Decodable {
    /// The duration.
    package let duration: Duration

    /// The duration of `text`, or `nil` when it is not one.
    package init?(text: String) {
        guard text.hasSuffix("s"), let seconds = Double(text.dropLast()), seconds.isFinite else { return nil }
        duration = .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Reads the JSON string.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = ProtoDuration(text: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a duration such as 300s or 1.5s")
        }
        self = parsed
    }
}
