import SwiftProtobuf

/// A proto3 JSON duration: seconds with an `s`, e.g. `"300s"`, `"1.5s"` or `"-0.000000001s"`,
/// as REST query parameters carry them.
package struct ProtoDuration {
    /// The duration as the message proto3 has for it.
    package let message: Google_Protobuf_Duration

    /// The duration.
    package var duration: Duration { message.duration }

    /// The duration of `text`, or `nil` when it is not one. Read by swift-protobuf, as the
    /// durations in request bodies are: at most nine fractional digits, no exponent, within
    /// proto3's ±315,576,000,000 s.
    package init?(text: String) {
        // Only the characters of a duration, so that nothing in `text` is read as JSON syntax.
        guard text.utf8.allSatisfy(Self.durationCharacters.contains),
            let parsed = try? Google_Protobuf_Duration(jsonString: "\"\(text)\"")
        else { return nil }
        message = parsed
    }

    private static let durationCharacters = Set("0123456789.-s".utf8)
}
