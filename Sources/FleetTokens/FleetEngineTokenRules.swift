/// The time and lifetime rules Fleet Engine applies to a token's `iat` and `exp`, shared by
/// the verifier (which stops at the first broken rule) and the inspector (which lists them all).
package enum FleetEngineTokenRules {
    /// The refusal for `exp - iat`, if the lifetime is not between 1 s and 3600 s.
    package static func lifetimeRefusal(issuedAt: Int64, expiresAt: Int64) -> TokenRefusal? {
        let lifetime = expiresAt - issuedAt
        return lifetime > 0 && lifetime <= FleetEngineClaims.maximumLifetime ? nil : .invalidLifetime(seconds: lifetime)
    }

    /// The refusal for `iat` more than ``TokenVerifier/maximumFutureIssue`` seconds after `now`.
    package static func futureIssueRefusal(issuedAt: Int64, now: Int64) -> TokenRefusal? {
        issuedAt <= now + TokenVerifier.maximumFutureIssue ? nil : .issuedInFuture(secondsAhead: issuedAt - now)
    }

    /// The refusal for a token whose `exp` (plus `skew`) has passed at `now`.
    package static func expiryRefusal(expiresAt: Int64, now: Int64, skew: Int64) -> TokenRefusal? {
        now < expiresAt + skew ? nil : .expired(secondsAgo: now - expiresAt)
    }

    /// The refusal for an `aud` that does not include `expected`.
    package static func audienceRefusal(_ audiences: [String], expected: String) -> TokenRefusal? {
        audiences.contains(expected) ? nil : .wrongAudience(audiences)
    }
}
