/// Why a token was refused. Every case maps to Fleet Engine's 401 `UNAUTHENTICATED`; the
/// ``reason`` code is stable for metrics and the ``description`` says which rule refused it.
/// Neither ever contains the token itself.
#if hasAttribute(nonexhaustive)
    @nonexhaustive  // more cases may come: switch with `@unknown default`
#endif
public enum TokenRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// No token was presented.
    case missing
    /// The token is larger than ``TokenVerifier/maximumTokenSize`` bytes.
    case oversized(bytes: Int)
    /// The token is not three base64url segments of JSON (what is wrong, in words).
    case malformed(String)
    /// The header's `alg` is not `RS256` (`none` and HS256 included).
    case unsupportedAlgorithm(String?)
    /// The `iss` claim is not a trusted service account.
    case unknownIssuer(String)
    /// `iss` and `sub` differ.
    case issuerSubjectMismatch
    /// The header's `kid` is not a key of the issuing account.
    case unknownKeyID(String)
    /// The RSA signature does not match the key named by `kid`.
    case badSignature
    /// The `aud` claim is not the expected audience.
    case wrongAudience([String])
    /// The token's `exp` has passed.
    case expired(secondsAgo: Int64)
    /// The token's `iat` is too far in the future.
    case issuedInFuture(secondsAhead: Int64)
    /// `exp - iat` is longer than Fleet Engine allows, or not positive.
    case invalidLifetime(seconds: Int64)
    /// A claim is missing or of the wrong type (which one, in words).
    case malformedClaims(String)

    /// A short stable code, e.g. `bad_signature`, for metrics and logs.
    public var reason: String {
        switch self {
        case .missing: "missing"
        case .oversized: "oversized"
        case .malformed: "malformed"
        case .unsupportedAlgorithm: "unsupported_algorithm"
        case .unknownIssuer: "unknown_issuer"
        case .issuerSubjectMismatch: "issuer_subject_mismatch"
        case .unknownKeyID: "unknown_key_id"
        case .badSignature: "bad_signature"
        case .wrongAudience: "wrong_audience"
        case .expired: "expired"
        case .issuedInFuture: "issued_in_future"
        case .invalidLifetime: "invalid_lifetime"
        case .malformedClaims: "malformed_claims"
        }
    }

    public var description: String {
        switch self {
        case .missing:
            "no token: send it as 'Authorization: Bearer <JWT>'"
        case .oversized(let bytes):
            "token is \(bytes) bytes; at most \(TokenVerifier.maximumTokenSize) are accepted"
        case .malformed(let problem):
            "token is malformed: \(problem)"
        case .unsupportedAlgorithm(let algorithm):
            "token algorithm \(algorithm.map { "'\($0)'" } ?? "(none given)") is not accepted; Fleet Engine tokens must be RS256"
        case .unknownIssuer(let issuer):
            "token issuer '\(issuer)' is not a trusted service account"
        case .issuerSubjectMismatch:
            "token 'iss' and 'sub' differ; both must be the signing service account's email"
        case .unknownKeyID(let keyID):
            "token key id '\(keyID)' is not a key of the issuing service account"
        case .badSignature:
            "token signature does not verify with the issuing service account's key"
        case .wrongAudience(let audiences):
            "token audience \(audiences.isEmpty ? "(none)" : audiences.map { "'\($0)'" }.joined(separator: ", ")) is not Fleet Engine's"
        case .expired(let secondsAgo):
            "token expired \(secondsAgo) s ago"
        case .issuedInFuture(let secondsAhead):
            "token 'iat' is \(secondsAhead) s in the future; at most \(TokenVerifier.maximumFutureIssue) s are tolerated"
        case .invalidLifetime(let seconds):
            "token lifetime (exp - iat) is \(seconds) s; it must be between 1 and \(FleetEngineClaims.maximumLifetime) s"
        case .malformedClaims(let problem):
            "token claims are malformed: \(problem)"
        }
    }
}
