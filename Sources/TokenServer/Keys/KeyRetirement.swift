import FleetTokens

/// When a replaced signing key leaves the published keys: once the last token it can have
/// signed has expired, i.e. the token lifetime after its replacement began to sign, plus an
/// overlap for replicas that signed with it until they heard of the change.
struct KeyRetirement: Sendable {
    /// The longest a token lives.
    let tokenLifetime: Int64
    /// ``TokenServerOptions/keyOverlap``.
    let overlap: Int64

    init(_ options: TokenServerOptions) {
        tokenLifetime = options.tokenLifetime.components.seconds
        overlap = options.keyOverlap.components.seconds
    }

    /// When `key` leaves the published keys; `nil` while it signs.
    func time(of key: StoredSigningKey) -> Int64? {
        key.supersededAt.map { $0 + tokenLifetime + overlap }
    }

    /// Whether `key` is published at `now` (epoch seconds).
    func isPublished(_ key: StoredSigningKey, at now: Int64) -> Bool {
        key.retiredAt == nil && (time(of: key).map { now < $0 } ?? true)
    }
}

/// A rotation that cannot be made.
package enum KeyRotationRefused: Error, CustomStringConvertible {
    /// The role signs through IAM: Google makes and rotates its keys.
    case keyless(FleetEngineRole)
    /// The role has no key to replace.
    case noKey(FleetEngineRole)

    /// Why, in words.
    package var description: String {
        switch self {
        case .keyless(let role):
            "\(role.shortName) tokens are signed through IAM with keys Google manages and rotates; there is no key here to rotate"
        case .noKey(let role):
            "\(role.shortName) has no signing key to replace"
        }
    }
}

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
