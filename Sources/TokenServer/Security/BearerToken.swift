import Hummingbird
import ServerHTTP

/// What a token request authenticates with.
enum BearerCredential: Sendable {
    /// A session token from `POST /v1/sessions` (`fas_…`, no dots).
    case session(String)
    /// A compact JWT (three dot-separated segments): an OpenID Connect ID token.
    case idToken(String)
}

/// Reads `Authorization: Bearer <token>`.
enum BearerToken {
    /// The request headers' bearer as a session token or, when it has the three segments of a JWT,
    /// an ID token; `nil` when there is none.
    static func credential(from headers: HTTPFields) -> BearerCredential? {
        credential(from: headers[values: .authorization])
    }

    /// The bearer of a request's `Authorization` values as a session token or an ID token, as
    /// ``credential(from:)-(HTTPFields)`` reads them.
    static func credential(from authorizationValues: some Collection<String>) -> BearerCredential? {
        guard case .token(let token) = BearerCredentials.read(authorizationValues) else { return nil }
        let dots = token.utf8.reduce(0) { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 }
        return dots == 2 ? .idToken(token) : .session(token)
    }

    /// The token of the request headers' bearer credentials (see ``BearerCredentials``), or `nil`
    /// when there is none to check.
    static func from(_ headers: HTTPFields) -> String? {
        guard case .token(let token) = BearerCredentials.read(headers[values: .authorization]) else { return nil }
        return token
    }
}
