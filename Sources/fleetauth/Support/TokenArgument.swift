import CommandSupport
import Foundation

/// Reads a token given on the command line, or from standard input when it is `-`.
enum TokenArgument {
    /// The token text, trimmed of white space and of a leading `Bearer `.
    static func read(_ argument: String) throws -> String {
        var text = argument
        if argument == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            text = String(decoding: data, as: UTF8.self)
        }
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.lowercased().hasPrefix("bearer ") {
            text = String(text.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        guard !text.isEmpty else { throw CommandFailure("no token given") }
        return text
    }
}
