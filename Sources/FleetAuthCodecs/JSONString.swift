import Foundation

/// JSON string literals, written by Foundation's `JSONEncoder` (slashes left as they are), for
/// the answers and claims that put a string into JSON themselves.
package enum JSONString {
    /// `text` as a JSON string literal, escaped as ``append(_:to:)`` writes it.
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` to `bytes` as a JSON string: quoted, with quotes, backslashes and
    /// control characters escaped (`/` and non-ASCII characters are left as they are).
    package static func append(_ text: String, to bytes: inout [UInt8]) {
        // A string always encodes; the fallback only keeps the signature non-throwing.
        bytes.append(contentsOf: (try? encoder.encode(text)) ?? Data(#""""#.utf8))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }()
}
