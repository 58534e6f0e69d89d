import Hummingbird

/// Reads `Authorization: Bearer <token>`.
enum BearerToken {
    /// The token of the request's bearer credentials, or `nil` when there are none.
    static func from(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = trimmed(parts[1])
        return token.isEmpty ? nil : token
    }

    /// `text` without leading and trailing white space; without Foundation's character-set
    /// scan in the usual case of a token that starts and ends with a visible ASCII character.
    private static func trimmed(_ text: Substring) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, (0x21..<0x7F).contains(first), (0x21..<0x7F).contains(last) {
            return String(text)
        }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
