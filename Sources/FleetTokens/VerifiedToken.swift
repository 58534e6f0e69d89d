/// A token whose signature and claims passed every check, with who signed it.
public struct VerifiedToken: Sendable, Hashable {
    /// The token's claims.
    public let claims: FleetEngineClaims
    /// The role of the signing service account: what the token may do.
    public let role: FleetEngineRole
    /// The `kid` of the signing key.
    public let keyID: String

    /// The resources the token names.
    public var authorization: AuthorizationClaims { claims.authorization }
}
