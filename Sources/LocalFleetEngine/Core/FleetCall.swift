import FleetTokens
import Logging

/// One request as the core sees it, whichever door it came through: the caller's verified
/// token, the provider the request names, and the request's logger.
struct FleetCall: Sendable {
    /// The caller's verified token.
    let token: VerifiedToken
    /// The provider (Cloud project id) the request names.
    let provider: String
    /// The request's logger.
    let logger: Logger
}
