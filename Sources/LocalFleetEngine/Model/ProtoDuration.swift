import Foundation

/// A proto3 JSON duration: seconds with an `s`, e.g. `"300s"` or `"1.5s"`.
struct ProtoDuration {
    /// The duration.
    let duration: Duration

    /// The duration of `text`, or `nil` when it is not one.
    init?(text: String) {
        guard text.hasSuffix("s"), let seconds = Double(text.dropLast()), seconds.isFinite else { return nil }
        duration = .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
