import Foundation
import Testing

@testable import FleetAuthCodecs

@Suite("HTTP Date header")
struct HTTPDateTests {
    @Test(
        "writes IMF-fixdate, zero-padded, in GMT",
        arguments: [
            (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
            (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
            (1_800_000_000, "Fri, 15 Jan 2027 08:00:00 GMT"),
            (1_709_208_000, "Thu, 29 Feb 2024 12:00:00 GMT"),
        ])
    func format(epochSeconds: Int, expected: String) {
        #expect(HTTPDate.format(epochSeconds: epochSeconds) == expected)
    }

    @Test("what it writes, it reads back to the second")
    func roundTrip() {
        for seconds in stride(from: 0, to: 4_000_000_000, by: 86_399 * 97) {
            #expect(
                HTTPDate.parse(HTTPDate.format(epochSeconds: seconds))
                    == Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
    }

    @Test("now is the current second")
    func now() throws {
        let before = Date()
        let read = try #require(HTTPDate.parse(HTTPDate.now))
        #expect(read.timeIntervalSince(before) > -1 && read.timeIntervalSince(Date()) <= 0)
    }
}
