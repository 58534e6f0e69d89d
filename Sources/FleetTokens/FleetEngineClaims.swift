/// The full claim set of a Fleet Engine token, with the exact JSON names Fleet Engine reads.
public struct FleetEngineClaims: Sendable, Hashable, Codable {
    /// The audience Fleet Engine requires in every token.
    public static let fleetEngineAudience = "https://fleetengine.googleapis.com/"

    /// The longest lifetime Fleet Engine accepts (`exp - iat`), in seconds.
    public static let maximumLifetime: Int64 = 3600

    /// The signing service account's email (`iss`).
    public var issuer: String
    /// The signing service account's email again (`sub`); must equal ``issuer``.
    public var subject: String
    /// The intended receiver (`aud`), normally ``fleetEngineAudience``.
    public var audience: String
    /// When the token was issued, in epoch seconds (`iat`).
    public var issuedAt: Int64
    /// When the token expires, in epoch seconds (`exp`).
    public var expiresAt: Int64
    /// The resources the token names (`authorization`).
    public var authorization: AuthorizationClaims

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case subject = "sub"
        case audience = "aud"
        case issuedAt = "iat"
        case expiresAt = "exp"
        case authorization
    }

    /// Creates a claim set.
    public init(
        issuer: String,
        subject: String,
        audience: String = FleetEngineClaims.fleetEngineAudience,
        issuedAt: Int64,
        expiresAt: Int64,
        authorization: AuthorizationClaims
    ) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.authorization = authorization
    }

    /// The lifetime the token claims, `exp - iat`, in seconds.
    public var lifetime: Int64 { expiresAt - issuedAt }
}
