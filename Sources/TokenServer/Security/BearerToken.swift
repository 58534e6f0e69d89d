import Hummingbird

/// What a token request authenticates with.
enum BearerCredential: Sendable {
    /// A session token from `POST /v1/sessions` (`fas_…`, no dots).
    case session(String)
    /// A compact JWT (three dot-separated segments): an OpenID Connect ID token.
    case idToken(String)
}

/// Reads `Authorization: Bearer <token>`.
enum BearerToken {
    /// The request's bearer as a session token or, when it has the three segments of a JWT,
    /// an ID token; `nil` when there is none.
    static func credential(from request: Request) -> BearerCredential? {
        guard let token = from(request) else { return nil }
        let dots = token.utf8.reduce(0) { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 }
        return dots == 2 ? .idToken(token) : .session(token)
    }

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
