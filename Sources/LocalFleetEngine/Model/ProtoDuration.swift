import SwiftProtobuf

/// A proto3 JSON duration: seconds with an `s`, e.g. `"300s"`, `"1.5s"` or `"-0.000000001s"`,
/// as REST query parameters carry them.
package struct ProtoDuration {
    /// The duration.
    package let duration: Duration

    /// The duration of `text`, or `nil` when it is not one. Read by swift-protobuf, as the
    /// durations in request bodies are: at most nine fractional digits, no exponent, within
    /// proto3's ±315,576,000,000 s.
    package init?(text: String) {
        // Only the characters of a duration, so that nothing in `text` is read as JSON syntax.
        guard text.utf8.allSatisfy(Self.durationCharacters.contains),
              let parsed = try? Google_Protobuf_Duration(jsonString: "\"\(text)\"")
        else { return nil }
        duration = .seconds(parsed.seconds) + .nanoseconds(Int64(parsed.nanos))
    }

    private static let durationCharacters = Set("0123456789.-s".utf8)
}
