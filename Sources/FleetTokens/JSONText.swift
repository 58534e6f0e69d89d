import Foundation

/// Small helpers for writing JSON text in a fixed field order.
enum JSONText {
    /// `value` as a JSON string literal, escaped.
    static func quoted(_ value: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding a String cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Appends `value` as a JSON string literal, as ``quoted(_:)`` writes it: directly when it
    /// is printable ASCII without `"` or `\` (nothing to escape), else through `JSONEncoder`.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        let plain = value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        if plain {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.append(contentsOf: quoted(value).utf8)
        }
    }
}
