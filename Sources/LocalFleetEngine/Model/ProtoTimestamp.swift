import Foundation

/// A `google.protobuf.Timestamp`: whole seconds since the Unix epoch plus nanoseconds, written
/// in JSON as RFC 3339 in UTC (`"2026-11-21T16:30:00.123Z"`), as proto3 JSON does.
public struct ProtoTimestamp: Sendable, Hashable, Comparable, Decodable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var seconds: Int64
    /// Nanoseconds within the second, 0 to 999,999,999.
    public var nanos: Int32

    /// Creates a timestamp from its parts.
    public init(seconds: Int64, nanos: Int32 = 0) {
        self.seconds = seconds
        self.nanos = nanos
    }

    /// The timestamp of `date`, to the nanosecond as far as `Date` is precise.
    public init(_ date: Date) {
        let interval = date.timeIntervalSince1970
        let whole = interval.rounded(.down)
        seconds = Int64(whole)
        nanos = Int32(min(999_999_999, ((interval - whole) * 1e9).rounded()))
    }

    /// Parses RFC 3339 (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, years 1 to 9999), or
    /// returns `nil`.
    public init?(rfc3339 text: String) {
        guard let parsed = RFC3339.parse(text) else { return nil }
        self = parsed
    }

    /// The time as a `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(nanos) / 1e9)
    }

    /// RFC 3339 in UTC, with 0, 3, 6 or 9 fractional digits as protobuf writes them.
    public var description: String {
        RFC3339.format(self)
    }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: ProtoTimestamp, rhs: ProtoTimestamp) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }

    /// Decodes an RFC 3339 string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = RFC3339.parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not an RFC 3339 timestamp such as 2026-11-21T16:30:00Z")
        }
        self = parsed
    }
}
