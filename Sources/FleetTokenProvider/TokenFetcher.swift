import FleetAuthHTTP
import Foundation

/// Gets a new token from wherever tokens come from, usually the fleet operator's token server
/// (``HTTPTokenFetcher``). ``CachingTokenProvider`` decides when to call it.
public protocol TokenFetcher: Sendable {
    /// Fetches a new token for `context`; called at most once at a time per context.
    func fetchToken(for context: AuthorizationContext) async throws -> FetchedToken
}

/// A token as the token server handed it out, with the expiry the response stated, if any,
/// and the server's clock when it answered.
///
/// The provider trusts the token's own `exp` claim first (read from a compact JWT, its segments
/// unpadded base64url as RFC 7515 writes them); the response's expiry only fills in
/// when that is missing, and when both are there the earlier wins. Absolute times are on the
/// token server's clock and are moved to the device's by the offset measured from
/// ``serverDate`` and the token's `iat` (see ``CachingTokenProvider``).
public struct FetchedToken: Equatable, Sendable {
    /// The token itself, usually a JWT.
    public var token: String
    /// The absolute expiry the response stated, on the token server's clock.
    public var expiresAt: Date?
    /// The lifetime the response stated, counted from when the request was sent.
    public var expiresIn: Duration?
    /// The token server's clock when it answered: the response's `Date` header.
    public var serverDate: Date?

    /// Creates a fetched token; `expiresAt`, `expiresIn` and `serverDate` are what the
    /// response stated.
    public init(token: String, expiresAt: Date? = nil, expiresIn: Duration? = nil, serverDate: Date? = nil) {
        self.token = token
        self.expiresAt = expiresAt
        self.expiresIn = expiresIn
        self.serverDate = serverDate
    }

    /// When the token stops being usable on the device's clock, and the clock offset that
    /// was measured to say so, for an answer to a request sent at `requestedAt` that arrived
    /// at `receivedAt`: the earliest of the token's `exp` claim and the response's stated
    /// expiries, the absolute ones moved from the server's clock, a relative one counted from
    /// `requestedAt`; `nil` when none is known.
    func expiry(requestedAt: Date, receivedAt: Date) -> (expiresAt: Date?, offset: ServerClockOffset) {
        let times = UnverifiedJWT.times(of: token)
        let offset = ServerClockOffset.measure(serverDate: serverDate, token: times, receivedAt: receivedAt)
        let candidates = [
            times.expiresAt.map(offset.deviceTime(atServerTime:)),
            expiresAt.map(offset.deviceTime(atServerTime:)),
            expiresIn.map { requestedAt + $0.timeInterval },
        ]
        return (candidates.compactMap { $0 }.min(), offset)
    }
}
