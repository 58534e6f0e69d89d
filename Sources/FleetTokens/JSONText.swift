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
}
