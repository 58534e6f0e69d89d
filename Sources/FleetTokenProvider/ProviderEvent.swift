import Foundation

/// Something the caching provider did, for logging and metrics. Events carry the context (ids
/// are not secrets) and never the token.
#if hasAttribute(nonexhaustive)
    @nonexhaustive  // more cases may come: switch with `@unknown default`
#endif
public enum ProviderEvent: Sendable {
    /// A caller was handed the cached token.
    case reused(AuthorizationContext)
    /// A fetch that callers were waiting for brought a new token, expiring at `expiresAt` on
    /// the device's clock.
    case fetched(AuthorizationContext, expiresAt: Date)
    /// A background refresh, started while the cached token was still being handed out,
    /// brought a new token, expiring at `expiresAt` on the device's clock.
    case refreshedEarly(AuthorizationContext, expiresAt: Date)
    /// A fetch failed; nothing was cached, and the next call tries again.
    case failed(AuthorizationContext, any Error)
    /// ``CachingTokenProvider/invalidate(_:)`` dropped the token held for the context.
    case invalidated(AuthorizationContext)
    /// A fetch for the context found the token server's clock this far ahead of the device's
    /// (behind, when negative), at least the configured threshold; the token's life is judged
    /// on the server's clock all the same. Worth a line in the app's logs.
    case clockSkew(AuthorizationContext, serverAhead: Duration)

    /// The context the event is about.
    public var context: AuthorizationContext {
        switch self {
        case .reused(let context), .fetched(let context, _), .refreshedEarly(let context, _),
            .failed(let context, _), .invalidated(let context), .clockSkew(let context, _):
            context
        }
    }
}
