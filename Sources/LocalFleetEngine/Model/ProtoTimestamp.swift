import Foundation

/// A `google.protobuf.Timestamp`: whole seconds since the Unix epoch plus nanoseconds.
package struct ProtoTimestamp: Sendable, Hashable, Comparable {
    /// Seconds since 1970-01-01T00:00:00Z.
    package var seconds: Int64
    /// Nanoseconds within the second, 0 to 999,999,999.
    package var nanos: Int32

    /// Creates a timestamp from its parts.
    package init(seconds: Int64, nanos: Int32 = 0) {
        self.seconds = seconds
        self.nanos = nanos
    }

    /// The timestamp of `date`, to the nanosecond as far as `Date` is precise.
    package init(_ date: Date) {
        let interval = date.timeIntervalSince1970
        let whole = interval.rounded(.down)
        seconds = Int64(whole)
        nanos = Int32(min(999_999_999, ((interval - whole) * 1e9).rounded()))
    }

    /// The time as a `Date`.
    package var date: Date {
        Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(nanos) / 1e9)
    }

    /// Whether `lhs` is earlier than `rhs`.
    package static func < (lhs: ProtoTimestamp, rhs: ProtoTimestamp) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }
}
