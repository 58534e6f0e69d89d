import Foundation
@testable import ServerHTTP
import Testing

@Suite("HTTP Date header")
struct HTTPDateTests {
    @Test("formats IMF-fixdate, zero-padded, in GMT", arguments: [
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (1_800_000_000, "Fri, 15 Jan 2027 08:00:00 GMT"),
        (1_709_208_000, "Thu, 29 Feb 2024 12:00:00 GMT"),
    ])
    func format(epochSeconds: Int, expected: String) {
        #expect(HTTPDate.format(epochSeconds: epochSeconds) == expected)
    }

    @Test("now is the current second")
    func now() throws {
        let before = Int(Date().timeIntervalSince1970)
        let text = HTTPDate.now
        let after = Int(Date().timeIntervalSince1970)
        #expect((before...after).map { HTTPDate.format(epochSeconds: $0) }.contains(text))
    }
}
