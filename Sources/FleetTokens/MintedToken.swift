import Foundation

/// A freshly signed token with the claims it carries.
public struct MintedToken: Sendable, Hashable {
    /// The compact JWT, `header.payload.signature`.
    public let token: String
    /// The claims inside it.
    public let claims: FleetEngineClaims
    /// The `kid` of the key that signed it, as its header names it (`nil` when it names none).
    public let keyID: String?

    /// A token signed by the key `keyID` names.
    init(token: String, claims: FleetEngineClaims, keyID: String?) {
        self.token = token
        self.claims = claims
        self.keyID = keyID
    }

    /// A token from a signer that does not say which key it used: the `kid` is read from its
    /// header.
    init(token: String, claims: FleetEngineClaims) {
        let header = try? CompactToken(token).header
        self.init(token: token, claims: claims, keyID: header.flatMap { try? JOSEHeader(json: $0).keyID })
    }

    /// When it was issued.
    public var issuedAt: Date { Date(timeIntervalSince1970: TimeInterval(claims.issuedAt)) }
    /// When it expires.
    public var expiresAt: Date { Date(timeIntervalSince1970: TimeInterval(claims.expiresAt)) }
}

/// Why a token could not be minted.
#if hasAttribute(nonexhaustive)
    @nonexhaustive  // more cases may come: switch with `@unknown default`
#endif
public enum TokenMintError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The lifetime is not between 1 second and Fleet Engine's maximum of 3600 seconds.
    case invalidLifetime(seconds: Int64)
    /// The kind's claims are not allowed (a wildcard in a client token, a bad id, …).
    case invalidClaims(String)
    /// The RSA signature could not be made.
    case signingFailed

    public var description: String {
        switch self {
        case .invalidLifetime(let seconds):
            "token lifetime \(seconds) s is not allowed: it must be between 1 and \(FleetEngineClaims.maximumLifetime) seconds"
        case .invalidClaims(let problem):
            "cannot mint this token: \(problem)"
        case .signingFailed:
            "the RSA signature could not be made"
        }
    }
}
