import SQLKit

/// What a caller may do — by a live session or by a linked identity's ID token: who it is
/// and, for one resource, whether it is assigned.
package struct SessionGrant: Sendable, Hashable {
    /// The account the caller acts as.
    package let username: String
    /// The account's role.
    package let role: AccountRole
    /// Whether the account is assigned to the resource asked about (`false` when none was).
    package let isAssigned: Bool
}

extension TokenServerStore {
    /// The grant of the account linked to `identity`, with whether it is assigned to
    /// `resource` — one query, read on every request, so deleting the account (or its link)
    /// ends the identity's use the moment it commits, on every replica.
    package func identityGrant(_ identity: LinkedIdentity, resource: Resource?) async throws -> SessionGrant? {
        try await grant(
            joining: "token_server_identities i JOIN token_server_accounts a ON a.username = i.username",
            where: "i.issuer = \(bind: identity.issuer) AND i.subject = \(bind: identity.subject)",
            resource: resource
        )
    }

    /// The grant of the account `a` found through `tables` where `condition` holds.
    func grant(joining tables: SQLQueryString, where condition: SQLQueryString, resource: Resource?) async throws -> SessionGrant? {
        try await database.first(Self.grantQuery(joining: tables, where: condition, resource: resource)).map(Self.grant(from:))
    }

    /// ``grant(joining:where:resource:)`` read on the calling thread (see
    /// ``ServerStorage/FleetDatabase/firstWithoutWaiting(_:)``).
    ///
    /// - Throws: ``ServerStorage/FleetDatabase/WouldWait`` when it cannot be read at once.
    func grantWithoutWaiting(joining tables: SQLQueryString, where condition: SQLQueryString, resource: Resource?) throws -> SessionGrant? {
        try database.firstWithoutWaiting(Self.grantQuery(joining: tables, where: condition, resource: resource)).map(Self.grant(from:))
    }

    private static func grantQuery(joining tables: SQLQueryString, where condition: SQLQueryString, resource: Resource?) -> SQLQueryString {
        """
        SELECT a.username AS username, a.role AS role,
            CASE WHEN EXISTS (
                SELECT 1 FROM token_server_assignments x
                WHERE x.kind = \(bind: resource?.kind.rawValue ?? "") AND x.resource_id = \(bind: resource?.id ?? "") AND x.username = a.username
            ) THEN 1 ELSE 0 END AS assigned
        FROM \(tables)
        WHERE \(condition)
        """
    }

    private static func grant(from row: any SQLRow) throws -> SessionGrant {
        SessionGrant(
            username: try row.decode(column: "username", as: String.self),
            role: try role(from: row),
            isAssigned: try row.decode(column: "assigned", as: Int.self) == 1
        )
    }
}
