import Crypto
import CryptoExtras
import FleetAuthLocking
import Foundation

/// Checks Fleet Engine tokens as Fleet Engine does, against a set of trusted service accounts.
///
/// The path is kept lean: the token is split once, the key is looked up by `kid`, the
/// signature is checked with swift-crypto, and only the claims Fleet Engine uses are decoded.
/// Tokens that passed are remembered (by a hash of the whole token) until their `exp`, so a
/// device's repeated requests cost no RSA work. Safe to share between threads.
public final class TokenVerifier: Sendable {
    /// The largest token accepted, in bytes.
    public static let maximumTokenSize = 8192
    /// How far in the future `iat` may be, in seconds.
    public static let maximumFutureIssue: Int64 = 600
    /// How many of an account's keys a token without `kid` is tried against, at most: a
    /// Google service account has up to ten keys of its own and two Google-managed ones.
    public static let maximumKeysTriedWithoutKeyID = 12

    /// The `aud` every token must carry.
    public let audience: String
    /// How long after `exp` a token is still accepted, in seconds, for clocks that differ.
    public let allowedClockSkew: Int64
    private let now: @Sendable () -> Date
    private let accounts: Locked<[String: TrustedServiceAccount]>
    private let cache: VerifiedTokenCache

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - accounts: the service accounts whose tokens are accepted.
    ///   - audience: the required `aud`; Fleet Engine's by default.
    ///   - allowedClockSkew: tolerance after `exp`; 10 s by default.
    ///   - cacheCapacity: how many verified tokens to remember (each keeps its token, about 1 KiB).
    ///   - now: the clock; the system clock by default.
    public init(
        trusting accounts: [TrustedServiceAccount],
        audience: String = FleetEngineClaims.fleetEngineAudience,
        allowedClockSkew: Duration = .seconds(10),
        cacheCapacity: Int = 100_000,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.audience = audience
        self.allowedClockSkew = allowedClockSkew.components.seconds
        self.now = now
        self.accounts = Locked(Self.index(accounts, into: [:]))
        self.cache = VerifiedTokenCache(capacity: cacheCapacity)
    }

    /// The accounts trusted now, by email.
    public var trustedAccounts: [TrustedServiceAccount] {
        accounts.withLock { $0.values.sorted { $0.email < $1.email } }
    }

    /// Trusts more accounts, or replaces the keys and role of accounts already trusted (matched
    /// by email). Forgets every remembered token, since a replaced key may no longer vouch for it.
    public func trust(_ newAccounts: [TrustedServiceAccount]) {
        accounts.withLock { $0 = Self.index(newAccounts, into: $0) }
        cache.removeAll()
    }

    /// Verifies `token` (the compact JWT, without `Bearer `), using the remembered result when
    /// the same token passed before and has not expired.
    public func verify(_ token: String) throws(TokenRefusal) -> VerifiedToken {
        guard !token.isEmpty else { throw .missing }
        let size = token.utf8.count
        guard size <= Self.maximumTokenSize else { throw .oversized(bytes: size) }
        let currentTime = Int64(now().timeIntervalSince1970.rounded(.down))
        if let remembered = cache.lookup(token, now: currentTime) { return remembered }
        let verified = try verifyWithoutCache(token, at: currentTime)
        cache.insert(token, verified: verified, now: currentTime)
        return verified
    }

    /// Verifies `token` from scratch, as if it had never been seen.
    public func verifyWithoutCache(_ token: String) throws(TokenRefusal) -> VerifiedToken {
        guard !token.isEmpty else { throw .missing }
        let size = token.utf8.count
        guard size <= Self.maximumTokenSize else { throw .oversized(bytes: size) }
        return try verifyWithoutCache(token, at: Int64(now().timeIntervalSince1970.rounded(.down)))
    }

    private func verifyWithoutCache(_ token: String, at currentTime: Int64) throws(TokenRefusal) -> VerifiedToken {
        let segments = try CompactToken(token)
        let header = try JOSEHeader(json: segments.header)
        guard header.algorithm == JOSEHeader.rs256 else { throw .unsupportedAlgorithm(header.algorithm) }
        let payload = try ClaimsPayload(json: segments.payload)

        guard let issuer = payload.iss else { throw .malformedClaims("'iss' is missing") }
        guard let account = accounts.withLock({ $0[issuer] }) else { throw .unknownIssuer(issuer) }
        guard payload.sub == issuer else { throw .issuerSubjectMismatch }
        let keyID = try Self.signingKeyID(of: segments, named: header.keyID, in: account)

        if let refusal = FleetEngineTokenRules.audienceRefusal(payload.audiences ?? [], expected: audience) {
            throw refusal
        }
        guard let issuedAt = payload.iat else { throw .malformedClaims("'iat' is missing") }
        guard let expiresAt = payload.exp else { throw .malformedClaims("'exp' is missing") }
        if let refusal = FleetEngineTokenRules.lifetimeRefusal(issuedAt: issuedAt, expiresAt: expiresAt)
            ?? FleetEngineTokenRules.futureIssueRefusal(issuedAt: issuedAt, now: currentTime)
            ?? FleetEngineTokenRules.expiryRefusal(expiresAt: expiresAt, now: currentTime, skew: allowedClockSkew)
        {
            throw refusal
        }

        let claims = FleetEngineClaims(
            issuer: issuer,
            subject: issuer,
            audience: audience,
            issuedAt: issuedAt,
            expiresAt: expiresAt,
            authorization: payload.authorization ?? AuthorizationClaims()
        )
        return VerifiedToken(claims: claims, role: account.role, keyID: keyID)
    }

    /// The id of the account's key that made the token's signature: the key the header's
    /// `kid` names, or, for a token without one (as Google's own IAM `signBlob` signers make),
    /// the first of at most ``maximumKeysTriedWithoutKeyID`` of the account's keys it verifies with.
    private static func signingKeyID(of token: CompactToken, named keyID: String?, in account: TrustedServiceAccount)
        throws(TokenRefusal) -> String
    {
        if let keyID {
            guard let publicKey = account.publicKeys[keyID] else { throw .unknownKeyID(keyID) }
            guard token.signatureMatches(publicKey) else { throw .badSignature }
            return keyID
        }
        let candidates = account.publicKeys.sorted { $0.key < $1.key }.prefix(maximumKeysTriedWithoutKeyID)
        guard let match = candidates.first(where: { token.signatureMatches($0.value) }) else { throw .badSignature }
        return match.key
    }

    private static func index(_ accounts: [TrustedServiceAccount], into existing: [String: TrustedServiceAccount])
        -> [String: TrustedServiceAccount]
    {
        var index = existing
        for account in accounts {
            if let known = index[account.email], known.role == account.role {
                index[account.email] = known.merging(account)
            } else {
                index[account.email] = account
            }
        }
        return index
    }
}
