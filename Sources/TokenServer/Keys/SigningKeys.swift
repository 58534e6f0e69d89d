import FleetTokens

/// The key that signs each Fleet Engine role's tokens now (roles signing through IAM have
/// none), as the ``SigningKeyRing`` last read them.
package struct SigningKeys: Sendable {
    /// The project every key belongs to.
    package let projectID: String
    /// The key of each role.
    package let keys: [FleetEngineRole: ServiceAccountKey]

    /// The keys of each role.
    package init(projectID: String, keys: [FleetEngineRole: ServiceAccountKey]) {
        self.projectID = projectID
        self.keys = keys
    }

    /// The key that signs tokens for `role`.
    package func key(for role: FleetEngineRole) -> ServiceAccountKey? {
        keys[role]
    }
}
