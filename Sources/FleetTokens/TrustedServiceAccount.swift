/// A service account whose tokens a verifier accepts: its email, its Fleet Engine role and
/// its public keys by `kid`.
public struct TrustedServiceAccount: Sendable {
    /// The account's email; tokens must carry it as `iss` and `sub`.
    public let email: String
    /// The account's role, which decides what its tokens may do.
    public let role: FleetEngineRole
    /// The account's public keys by key id.
    public let publicKeys: [String: RSAPublicKey]

    /// Trusts `email` with `role` and the given keys.
    public init(email: String, role: FleetEngineRole, publicKeys: [String: RSAPublicKey]) {
        self.email = email
        self.role = role
        self.publicKeys = publicKeys
    }

    /// Trusts the account of a key file with `role` (only its public key is kept).
    public init(key: ServiceAccountKey, role: FleetEngineRole) {
        self.init(email: key.clientEmail, role: role, publicKeys: [key.privateKeyID: key.publicKey])
    }

    /// This account with `other`'s keys added (same email and role).
    func merging(_ other: TrustedServiceAccount) -> TrustedServiceAccount {
        TrustedServiceAccount(
            email: email, role: role, publicKeys: publicKeys.merging(other.publicKeys) { _, new in new })
    }
}
