import Foundation

/// Prints values as pretty, stably ordered JSON on standard output (the commands' `--json`).
package enum JSONOutput {
    /// Prints `value` as JSON.
    package static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        Swift.print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Prints `value` as JSON on one line, for a reader of JSON lines (a SIEM's, `jq`).
    package static func printLine(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        Swift.print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
