import FleetTokens

/// A signing key as the admin API and `fleetauth keys` show it: never its private half.
package struct SigningKeyStatus: Sendable, Encodable {
    /// The role whose tokens it signs (`driver`, …).
    package let role: String
    /// Its key id.
    package let kid: String
    /// The service account it belongs to.
    package let account: String
    /// `signing`, `published` (replaced, its tokens may still be live) or `retired`.
    package let state: String
    /// When it began signing (epoch seconds).
    package let addedAt: Int64
    /// When a newer key replaced it.
    package let replacedAt: Int64?
    /// When it leaves (or left) the published keys, once replaced.
    package let retiresAt: Int64?
    /// When it was retired.
    package let retiredAt: Int64?

    init(_ key: StoredSigningKey, signing: Bool, retiresAt: Int64?, published: Bool) {
        role = key.role.shortName
        kid = key.keyID
        account = key.key.clientEmail
        state = signing ? "signing" : published ? "published" : "retired"
        addedAt = key.addedAt
        replacedAt = key.supersededAt
        self.retiresAt = retiresAt
        retiredAt = key.retiredAt
    }
}
