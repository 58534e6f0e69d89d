import Foundation
import FuzzSupport
import LocalFleetEngine

/// RFC 3339 timestamps and proto3 durations, read from any text:
/// - a timestamp the parser accepts formats as text that parses to the same instant, and that
///   text formats back to itself; its date and time of day are the ones Foundation's Gregorian
///   calendar gives for the instant (from 1583 on, where Foundation stops using the Julian
///   calendar);
/// - a duration the parser accepts is within proto3's range (±10,000 years) and is the number
///   of seconds Foundation reads from the same digits, to the nanosecond it can hold.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimes(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    if let timestamp = ProtoTimestamp(rfc3339: text) {
        checkRoundTrip(timestamp)
    }
    if let duration = ProtoDuration(text: text) {
        checkDuration(duration.duration, text: text)
    }
    return 0
}

private func checkRoundTrip(_ timestamp: ProtoTimestamp) {
    let formatted = timestamp.description
    guard let reparsed = ProtoTimestamp(rfc3339: formatted) else {
        return require(false, "\(formatted), the formatted timestamp, does not parse")
    }
    require(reparsed == timestamp, "\(formatted) parses to another instant")
    require(reparsed.description == formatted, "\(formatted) formats to other text")
    require((0..<1_000_000_000).contains(timestamp.nanos), "nanos out of range")

    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = Date(timeIntervalSince1970: TimeInterval(timestamp.seconds))
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    guard let year = parts.year, year >= 1583, let month = parts.month, let day = parts.day,
          let hour = parts.hour, let minute = parts.minute, let second = parts.second else { return }
    let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
    require(formatted.hasPrefix(expected), "\(formatted) is \(expected) by Foundation's calendar")
}

private func checkDuration(_ duration: Duration, text: String) {
    let (seconds, attoseconds) = duration.components
    require(abs(seconds) <= 315_576_000_000, "\(text) is beyond proto3's ±315576000000 s")
    guard let foundation = Double(text.dropLast()) else {
        return require(false, "\(text) is a duration Foundation cannot read as a number")
    }
    let value = Double(seconds) + Double(attoseconds) / 1e18
    require(abs(value - foundation) <= max(1e-9, abs(foundation) * 1e-15), "\(text) reads as \(duration)")
}
