/// The JOSE header of a Fleet Engine token: `{"alg":"RS256","typ":"JWT","kid":…}`.
public struct JOSEHeader: Sendable, Hashable, Codable {
    /// The only algorithm Fleet Engine accepts.
    public static let rs256 = "RS256"
    /// ECDSA P-256 with SHA-256, which OpenID Connect issuers may use for ID tokens.
    public static let es256 = "ES256"

    /// The signature algorithm (`alg`).
    public var algorithm: String?
    /// The token type (`typ`), `JWT`.
    public var type: String?
    /// The id of the key that signed the token (`kid`), the key file's `private_key_id`.
    public var keyID: String?

    enum CodingKeys: String, CodingKey {
        case algorithm = "alg"
        case type = "typ"
        case keyID = "kid"
    }

    /// Creates a header.
    public init(algorithm: String? = JOSEHeader.rs256, type: String? = "JWT", keyID: String?) {
        self.algorithm = algorithm
        self.type = type
        self.keyID = keyID
    }
}
