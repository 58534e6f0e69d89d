import FleetAuthServerHTTP
import Hummingbird

/// What a token request authenticates with: the bearer of its `Authorization` header, read by
/// ``FleetAuthServerHTTP/BearerCredentials`` as both servers read it.
enum TokenRequestCredential: Sendable {
    /// A session token from `POST /v1/sessions` (`fas_…`, no dots).
    case session(String)
    /// A compact JWT (three dot-separated segments): an OpenID Connect ID token.
    case idToken(String)

    /// The bearer of a request's `Authorization` values as an ID token when it has the three
    /// segments of a JWT, a session token otherwise; `nil` when there is none.
    init?(authorization values: some Collection<String>) {
        guard case .token(let token) = BearerCredentials.read(values) else { return nil }
        let dots = token.utf8.reduce(0) { $1 == UInt8(ascii: ".") ? $0 + 1 : $0 }
        self = dots == 2 ? .idToken(token) : .session(token)
    }

    /// The bearer of `headers`' `Authorization`, as ``init(authorization:)`` reads it.
    init?(headers: HTTPFields) {
        self.init(authorization: headers[values: .authorization])
    }
}
