import Foundation

/// Base64url without padding (RFC 7515 §2), the encoding of every JWT segment.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Decoding table: the 6-bit value of each byte, or 0xFF for bytes outside the alphabet.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    /// Encodes bytes as unpadded base64url text.
    static func encode<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        let input = Array(bytes)
        let outputCount = (input.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: outputCount) { output in
            var written = 0
            var index = 0
            func emit(_ value: UInt32, shift: UInt32) {
                output[written] = alphabet[Int((value >> shift) & 0x3F)]
                written += 1
            }
            while index + 3 <= input.count {
                let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                emit(chunk, shift: 18); emit(chunk, shift: 12); emit(chunk, shift: 6); emit(chunk, shift: 0)
                index += 3
            }
            switch input.count - index {
            case 1:
                let chunk = UInt32(input[index]) << 16
                emit(chunk, shift: 18); emit(chunk, shift: 12)
            case 2:
                let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                emit(chunk, shift: 18); emit(chunk, shift: 12); emit(chunk, shift: 6)
            default:
                break
            }
            return written
        }
    }

    /// Decodes unpadded base64url text; `nil` when it is not strictly base64url.
    static func decode(_ text: Substring) -> Data? {
        decode(text.utf8)
    }

    /// Decodes unpadded base64url bytes; `nil` when they are not strictly base64url
    /// (padding, `+`, `/`, white space and impossible lengths are all refused).
    static func decode<Bytes: Collection<UInt8>>(_ text: Bytes) -> Data? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode($0) }) {
            return decoded
        }
        return Array(text).withUnsafeBufferPointer { decode($0) }
    }

    /// Decodes unpadded base64url bytes in place; `nil` when they are not strictly base64url.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> Data? {
        let count = text.count
        guard count % 4 != 1 else { return nil }
        var output = Data(count: count * 3 / 4)
        let valid = output.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) -> Bool in
            sextets.withUnsafeBufferPointer { table in
                var accumulator: UInt32 = 0
                var bits: UInt32 = 0
                var written = 0
                for byte in text {
                    let value = table[Int(byte)]
                    if value == 0xFF { return false }
                    accumulator = (accumulator << 6) | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        raw[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
                        written += 1
                    }
                }
                // Leftover bits must be zero, or two encodings would decode to the same bytes.
                return accumulator & ((1 << bits) - 1) == 0
            }
        }
        return valid ? output : nil
    }
}
