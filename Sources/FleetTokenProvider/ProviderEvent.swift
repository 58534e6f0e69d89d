import Foundation

/// Something the caching provider did, for logging and metrics. Events carry the context (ids
/// are not secrets) and never the token.
public enum ProviderEvent: Sendable {
    /// A caller was handed the cached token.
    case reused(AuthorizationContext)
    /// A fetch that callers were waiting for brought a new token.
    case fetched(AuthorizationContext, expiresAt: Date)
    /// A background refresh, started while the cached token was still being handed out,
    /// brought a new token.
    case refreshedEarly(AuthorizationContext, expiresAt: Date)
    /// A fetch failed; nothing was cached, and the next call tries again.
    case failed(AuthorizationContext, any Error)
    /// ``CachingTokenProvider/invalidate(_:)`` dropped the token held for the context.
    case invalidated(AuthorizationContext)

    /// The context the event is about.
    public var context: AuthorizationContext {
        switch self {
        case .reused(let context), .fetched(let context, _), .refreshedEarly(let context, _),
            .failed(let context, _), .invalidated(let context):
            context
        }
    }
}
