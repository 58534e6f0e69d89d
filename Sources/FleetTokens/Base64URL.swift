import Foundation

/// Base64url without padding (RFC 7515 §2), the encoding of every JWT segment.
enum Base64URL {
    /// Encodes bytes as unpadded base64url text.
    static func encode<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-")
        text = text.replacingOccurrences(of: "/", with: "_")
        while text.last == "=" { text.removeLast() }
        return text
    }

    /// Decodes unpadded base64url text; `nil` when it is not strictly base64url.
    static func decode(_ text: Substring) -> Data? {
        decode(text.utf8)
    }

    /// Decodes unpadded base64url bytes; `nil` when they are not strictly base64url
    /// (padding, `+`, `/`, white space and impossible lengths are all refused).
    static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> Data? {
        let count = text.count
        guard count % 4 != 1 else { return nil }
        var output = Data(capacity: count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text {
            guard let value = sextet(byte) else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero, or two encodings would decode to the same bytes.
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
