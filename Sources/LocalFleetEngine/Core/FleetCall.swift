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

/// What a door learns of a call while answering it, for the console's table of calls: the
/// verified token (its claims, never the token) and the id of the resource it names.
struct CallNote: Sendable {
    /// The caller's verified token, once verified.
    var token: VerifiedToken?
    /// The id of the resource the call names (empty for a collection).
    var resource = ""
}
