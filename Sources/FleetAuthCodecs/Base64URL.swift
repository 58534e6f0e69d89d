import Foundation

/// Base64url without padding (RFC 7515 §2), the encoding of every JWT segment (and of the
/// local Fleet Engine's page tokens). Encoding rests on Foundation; decoding is strict, as
/// Foundation's is not: only the URL alphabet, no padding, and spare bits zero, so that one
/// signature has one spelling.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Decoding table: the 6-bit value of each byte, or 0xFF for bytes outside the alphabet.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// Encodes bytes as unpadded base64url text: Foundation's base64 with the URL alphabet
    /// swapped in and the padding taken off (a hand-written encoder gained nothing on tokens/s,
    /// docs/architecture.md's ledger).
    package static func encode<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        // Foundation's ASCII bytes, changed in place through one pointer: a map over the text's
        // Unicode scalars took the standard library's generic, slow path, and `Data`'s
        // subscript checks exclusive access on every byte.
        var ascii = Data(bytes).base64EncodedData()
        while ascii.last == UInt8(ascii: "=") { ascii.removeLast() }
        ascii.withUnsafeMutableBytes { raw in
            for index in raw.indices {
                switch raw[index] {
                case UInt8(ascii: "+"): raw[index] = UInt8(ascii: "-")
                case UInt8(ascii: "/"): raw[index] = UInt8(ascii: "_")
                default: break
                }
            }
        }
        return String(decoding: ascii, as: UTF8.self)
    }

    /// Decodes unpadded base64url text; `nil` when it is not strictly base64url.
    package static func decode(_ text: Substring) -> Data? {
        decode(text.utf8)
    }

    /// Decodes unpadded base64url bytes; `nil` when they are not strictly base64url
    /// (padding, `+`, `/`, white space and impossible lengths are all refused).
    package static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> Data? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode($0) }) {
            return decoded
        }
        return Array(text).withUnsafeBufferPointer { decode($0) }
    }

    /// Decodes unpadded base64url bytes in place; `nil` when they are not strictly base64url.
    ///
    /// Four characters make three bytes at a time (the signature segment of every token passes
    /// through here); a last two or three characters make one or two.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> Data? {
        let count = text.count
        let rest = count % 4
        guard rest != 1 else { return nil }
        var output = Data(count: count * 3 / 4)
        let valid = output.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) -> Bool in
            sextets.withUnsafeBufferPointer { table in
                /// The sextets of `text[start..<start + length]` as one number; `nil` if one is
                /// outside the alphabet (its table entry, 0xFF, has the top bits set).
                func chunk(at start: Int, length: Int) -> UInt32? {
                    var chunk: UInt32 = 0
                    var invalid: UInt8 = 0
                    for offset in 0..<length {
                        let value = table[Int(text[start + offset])]
                        invalid |= value
                        chunk = chunk << 6 | UInt32(value)
                    }
                    return invalid & 0xC0 == 0 ? chunk : nil
                }
                var written = 0
                for start in stride(from: 0, to: count - rest, by: 4) {
                    guard let chunk = chunk(at: start, length: 4) else { return false }
                    raw[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    raw[written + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    raw[written + 2] = UInt8(truncatingIfNeeded: chunk)
                    written += 3
                }
                guard rest > 0 else { return true }
                guard let chunk = chunk(at: count - rest, length: rest) else { return false }
                // 2 characters carry 1 byte and 4 spare bits, 3 carry 2 bytes and 2 spare bits.
                // Spare bits must be zero, or two encodings would decode to the same bytes.
                let spare = UInt32(6 * rest - 8 * (rest - 1))
                guard chunk & ((1 << spare) - 1) == 0 else { return false }
                for index in 0..<(rest - 1) {
                    raw[written + index] = UInt8(truncatingIfNeeded: chunk >> (spare + UInt32(8 * (rest - 2 - index))))
                }
                return true
            }
        }
        return valid ? output : nil
    }
}
