import Foundation
import Testing

@testable import FleetAuthCodecs

@Suite("base64url")
struct Base64URLTests {
    @Test("round trips every length", arguments: 0..<20)
    func roundTrip(length: Int) {
        let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) })
        let text = Base64URL.encode(bytes)
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        #expect(Base64URL.decode(text[...]) == bytes)
    }

    @Test(
        "refuses what is not strict base64url",
        arguments: ["a", "ab=", "a+b/", "ab c", "abcde", "ab\n", "AB", "AAB", "abc*", "abcdef\u{00e9}"])
    func refuses(text: String) {
        // "AB" has non-zero leftover bits: a second spelling of the same byte.
        #expect(Base64URL.decode(text[...]) == nil)
    }
}
