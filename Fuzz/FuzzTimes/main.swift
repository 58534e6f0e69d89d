import Foundation
import FuzzSupport
import LocalFleetEngine
import SwiftProtobuf

/// Proto3 JSON times, read from any text as the REST door reads them:
/// - a timestamp swift-protobuf accepts (RFC 3339) formats as text that parses to the same
///   instant and formats back to itself, and its date and time of day are the ones
///   Foundation's Gregorian calendar gives for the instant (from 1583 on, where Foundation
///   stops using the Julian calendar);
/// - a duration swift-protobuf accepts round-trips the same way and stays in proto3's range;
/// - the local Fleet Engine's own duration reader (query parameters) accepts only what
///   swift-protobuf accepts, with the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimes(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let literal = "\"" + text + "\""
    if let timestamp = try? Google_Protobuf_Timestamp(jsonString: literal) {
        checkRoundTrip(timestamp)
        checkCalendar(timestamp)
    }
    let duration = try? Google_Protobuf_Duration(jsonString: literal)
    if let duration {
        checkRoundTrip(duration)
        require(abs(duration.seconds) <= 315_576_000_000, "\(text) is beyond proto3's ±315576000000 s")
    }
    if let own = ProtoDuration(text: text) {
        require(duration != nil, "ProtoDuration accepts \(text), which swift-protobuf refuses")
        let expected = Duration.seconds(duration?.seconds ?? 0) + .nanoseconds(Int64(duration?.nanos ?? 0))
        require(own.duration == expected, "ProtoDuration reads \(text) as \(own.duration)")
    }
    return 0
}

/// `value`'s JSON parses back to `value`, and writes the same JSON again.
private func checkRoundTrip<Value: SwiftProtobuf.Message & Equatable>(_ value: Value) {
    guard let formatted = try? value.jsonString() else { return require(false, "\(value) has no JSON") }
    guard let reparsed = try? Value(jsonString: formatted) else {
        return require(false, "\(formatted), as written, does not parse")
    }
    require(reparsed == value, "\(formatted) parses to another value")
    require((try? reparsed.jsonString()) == formatted, "\(formatted) writes as other text")
}

/// The timestamp's date and time of day, as written, are Foundation's for the same instant.
private func checkCalendar(_ timestamp: Google_Protobuf_Timestamp) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = Date(timeIntervalSince1970: TimeInterval(timestamp.seconds))
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    guard let year = parts.year, year >= 1583, let month = parts.month, let day = parts.day,
        let hour = parts.hour, let minute = parts.minute, let second = parts.second,
        let formatted = try? timestamp.jsonString()
    else { return }
    let expected = String(format: "\"%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
    require(formatted.hasPrefix(expected), "\(formatted) is \(expected) by Foundation's calendar")
}
