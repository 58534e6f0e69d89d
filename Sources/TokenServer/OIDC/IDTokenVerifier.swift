import FleetTokens
import Foundation
import Logging

/// Checks OpenID Connect ID tokens as strictly as Fleet Engine's verifier checks its tokens:
/// RS256 or ES256 only, with the trusted issuer's key of the token's `kid` (fetched through
/// ``IssuerKeys``); then `aud`, `exp`, `iat`, `nbf` (when present) and `sub`. Safe to share.
final class IDTokenVerifier: Sendable {
    /// The largest ID token accepted, in bytes.
    static let maximumTokenSize = 16 * 1024

    private let issuers: [String: IssuerKeys]
    private let audiences: Set<String>
    private let skew: Int64
    private let now: @Sendable () -> Date

    /// A verifier trusting the issuers and audiences of `settings`, by the clock `now`.
    init(settings: OIDCSettings, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.issuers = Dictionary(
            settings.issuers.map { issuer in
                (
                    issuer,
                    IssuerKeys(
                        issuer: issuer, refetchInterval: settings.keyRefetchInterval,
                        requestTimeout: settings.requestTimeout, now: now, logger: logger
                    )
                )
            }, uniquingKeysWith: { first, _ in first })
        self.audiences = Set(settings.audiences)
        self.skew = settings.allowedClockSkew.components.seconds
        self.now = now
    }

    /// The identity `token` vouches for, or the first rule it breaks.
    func verify(_ token: String) async throws(IDTokenRefusal) -> LinkedIdentity {
        guard token.utf8.count <= Self.maximumTokenSize else { throw .oversized }
        let segments: CompactToken
        let header: JOSEHeader
        let claims: ClaimsPayload
        do {
            segments = try CompactToken(token)
            header = try JOSEHeader(json: segments.header)
            claims = try ClaimsPayload(json: segments.payload)
        } catch {
            throw IDTokenRefusal(error)
        }
        guard header.algorithm == JOSEHeader.rs256 || header.algorithm == JOSEHeader.es256 else {
            throw .unsupportedAlgorithm
        }
        guard let issuer = claims.iss, let keys = issuers[issuer] else { throw .untrustedIssuer }
        guard let keyID = header.keyID else { throw .missingKeyID }
        let key: JWSPublicKey
        switch await keys.key(keyID) {
        case .found(let found): key = found
        case .unknown: throw .unknownKeyID
        case .unavailable(let problem): throw .issuerUnavailable(issuer: issuer, problem: problem)
        }
        guard key.algorithm == header.algorithm else { throw .algorithmMismatch }
        guard segments.signatureMatches(key) else { throw .badSignature }

        guard let audiences = claims.audiences, audiences.contains(where: self.audiences.contains) else {
            throw .wrongAudience
        }
        let current = Int64(now().timeIntervalSince1970.rounded(.down))
        guard let expiresAt = claims.exp else { throw .missingClaim("exp") }
        guard current < expiresAt + skew else { throw .expired }
        guard let issuedAt = claims.iat else { throw .missingClaim("iat") }
        guard issuedAt <= current + skew else { throw .issuedInFuture }
        if let notBefore = claims.nbf, notBefore > current + skew { throw .notYetValid }
        guard let subject = claims.sub, !subject.isEmpty else { throw .missingClaim("sub") }
        return LinkedIdentity(issuer: issuer, subject: subject)
    }
}
