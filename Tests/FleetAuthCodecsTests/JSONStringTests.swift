import Foundation
import Testing

@testable import FleetAuthCodecs

@Suite("JSON strings written by hand")
struct JSONStringTests {
    static let samples: [String] = [
        "", "vehicle-1", "eyJhbGciOiJSUzI1NiJ9.e30.c2ln", "say \"hi\"", #"back\slash"#, "a/b",
        "line\nbreak", "tab\there", "cr\rlf", "\u{0}\u{1}\u{1F}\u{7F}", "ünïcödé ✓ 🚗", "\u{2028}\u{2029}",
    ]

    @Test("what it writes parses back to the same string, with Foundation's JSON reader", arguments: samples)
    func roundTrip(_ text: String) throws {
        var bytes: [UInt8] = Array("[".utf8)
        JSONString.append(text, to: &bytes)
        bytes.append(UInt8(ascii: "]"))
        let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String]
        #expect(parsed == [text])
    }

    @Test("control characters, quotes and backslashes are escaped; nothing else is")
    func escapes() {
        var bytes: [UInt8] = []
        JSONString.append("\"\\\n\u{1}/é", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #""\"\\\n\u0001/é""#)
    }
}
