import FleetAuthServerHTTP
import FleetTokens

/// Why an ID token was not accepted. Each case names the rule that failed and never holds
/// the token or an unverified claim; all are 401 but ``issuerUnavailable(issuer:problem:)``,
/// which is 503: the token may be good, but its issuer's keys cannot be had now.
enum IDTokenRefusal: Error, Sendable, Equatable {
    /// Larger than ``IDTokenVerifier/maximumTokenSize`` bytes.
    case oversized
    /// Not three base64url segments of JSON objects, or a claim of the wrong type.
    case malformed(String)
    /// `alg` is not RS256 or ES256 (`none` and HMAC included).
    case unsupportedAlgorithm
    /// `iss` is missing or not a trusted issuer.
    case untrustedIssuer
    /// The header has no `kid`.
    case missingKeyID
    /// The issuer has no key with the token's `kid`, even after fetching its keys again.
    case unknownKeyID
    /// The key named by `kid` is for another algorithm than the token's `alg`.
    case algorithmMismatch
    /// The signature does not verify with the issuer's key.
    case badSignature
    /// `aud` holds none of the accepted audiences.
    case wrongAudience
    /// No `exp`, `iat` or `sub` (which one).
    case missingClaim(String)
    /// `exp` has passed.
    case expired
    /// `iat` is in the future.
    case issuedInFuture
    /// `nbf` is in the future.
    case notYetValid
    /// The issuer's keys cannot be fetched and none at hand verifies the token.
    case issuerUnavailable(issuer: String, problem: String)

    /// Every rule's stable code, for metrics.
    static let rules = [
        "oversized", "malformed", "unsupported_algorithm", "untrusted_issuer", "missing_key_id", "unknown_key_id",
        "algorithm_mismatch", "bad_signature", "wrong_audience", "missing_claim", "expired", "issued_in_future",
        "not_yet_valid", "issuer_unavailable",
    ]

    /// The rule's stable code, e.g. `wrong_audience`.
    var rule: String {
        switch self {
        case .oversized: "oversized"
        case .malformed: "malformed"
        case .unsupportedAlgorithm: "unsupported_algorithm"
        case .untrustedIssuer: "untrusted_issuer"
        case .missingKeyID: "missing_key_id"
        case .unknownKeyID: "unknown_key_id"
        case .algorithmMismatch: "algorithm_mismatch"
        case .badSignature: "bad_signature"
        case .wrongAudience: "wrong_audience"
        case .missingClaim: "missing_claim"
        case .expired: "expired"
        case .issuedInFuture: "issued_in_future"
        case .notYetValid: "not_yet_valid"
        case .issuerUnavailable: "issuer_unavailable"
        }
    }

    /// What the caller is told.
    var message: String {
        switch self {
        case .oversized: "ID token is larger than \(IDTokenVerifier.maximumTokenSize) bytes"
        case .malformed(let problem): "ID token is malformed: \(problem)"
        case .unsupportedAlgorithm: "ID token algorithm is not accepted; ID tokens must be signed with RS256 or ES256"
        case .untrustedIssuer: "ID token issuer is not trusted"
        case .missingKeyID: "ID token header has no 'kid'"
        case .unknownKeyID: "ID token key id is not one of the issuer's keys"
        case .algorithmMismatch: "ID token algorithm does not match the issuer's key"
        case .badSignature: "ID token signature does not verify with the issuer's key"
        case .wrongAudience: "ID token audience is not trusted"
        case .missingClaim(let claim): "ID token has no '\(claim)'"
        case .expired: "ID token has expired"
        case .issuedInFuture: "ID token 'iat' is in the future"
        case .notYetValid: "ID token is not valid yet ('nbf' is in the future)"
        case .issuerUnavailable(let issuer, _):
            "the keys of ID token issuer \(issuer) cannot be fetched now; try again later"
        }
    }

    /// The refusal as the API sends it; 503s carry `Retry-After`.
    func apiError(retryAfter: Duration) -> APIError {
        if case .issuerUnavailable = self { return APIError(.unavailable, message, retryAfter: retryAfter) }
        return .unauthenticated(message)
    }

    /// The refusal for a token the compact-JWT reader refused.
    init(_ refusal: TokenRefusal) {
        switch refusal {
        case .malformed(let problem), .malformedClaims(let problem): self = .malformed(problem)
        default: self = .malformed(refusal.reason)
        }
    }
}
