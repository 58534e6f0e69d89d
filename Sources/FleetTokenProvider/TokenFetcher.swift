import Foundation

/// Gets a new token from wherever tokens come from, usually the fleet operator's token server
/// (``HTTPTokenFetcher``). ``CachingTokenProvider`` decides when to call it.
public protocol TokenFetcher: Sendable {
    /// Fetches a new token for `context`; called at most once at a time per context.
    func fetchToken(for context: AuthorizationContext) async throws -> FetchedToken
}

/// A token as the token server handed it out, with the expiry the response stated, if any.
///
/// The provider trusts the token's own `exp` claim first; the response's expiry only fills in
/// when that is missing, and when both are there the earlier wins.
public struct FetchedToken: Equatable, Sendable {
    /// The token itself, usually a JWT.
    public var token: String
    /// The absolute expiry the response stated.
    public var expiresAt: Date?
    /// The lifetime the response stated, counted from when the request was sent.
    public var expiresIn: Duration?

    /// Creates a fetched token; `expiresAt` and `expiresIn` are the response's own statements.
    public init(token: String, expiresAt: Date? = nil, expiresIn: Duration? = nil) {
        self.token = token
        self.expiresAt = expiresAt
        self.expiresIn = expiresIn
    }

    /// The earliest of the token's `exp` claim and the response's stated expiries, with a
    /// relative expiry counted from `requestedAt`; `nil` when none is known.
    func expiry(requestedAt: Date) -> Date? {
        let candidates = [
            UnverifiedJWT.expiration(of: token),
            expiresAt,
            expiresIn.map { requestedAt + $0.timeInterval },
        ]
        return candidates.compactMap { $0 }.min()
    }
}
