import Foundation

/// Prints values as pretty, stably ordered JSON on standard output.
enum JSONOutput {
    /// Prints `value` as JSON.
    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        Swift.print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
