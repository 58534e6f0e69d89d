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
        let query = Self.grantQuery(
            joining: "token_server_identities i JOIN token_server_accounts a ON a.username = i.username",
            where: "i.issuer = \(bind: identity.issuer) AND i.subject = \(bind: identity.subject)",
            endingAt: "NULL",
            resource: resource
        )
        return try await database.first(query).flatMap { try Self.grant(from: $0, now: 0) }
    }

    /// The query of the grant of the account `a` found through `tables` where `condition`
    /// holds, with the moment (`ending`, epoch seconds, NULL for never) the grant ends.
    ///
    /// The end is compared by the caller, not in the query: the query's binds then stay the
    /// same from one second to the next, and SQLite may give a repeated read's answer again
    /// (see ``FleetAuthServerStorage/ServerDatabase/first(_:)``).
    static func grantQuery(
        joining tables: SQLQueryString, where condition: SQLQueryString, endingAt ending: SQLQueryString,
        resource: Resource?
    ) -> SQLQueryString {
        """
        SELECT a.username AS username, a.role AS role, \(ending) AS ends_at,
            CASE WHEN EXISTS (
                SELECT 1 FROM token_server_assignments x
                WHERE x.kind = \(bind: resource?.kind.rawValue ?? "") AND x.resource_id = \(bind: resource?.id ?? "") AND x.username = a.username
            ) THEN 1 ELSE 0 END AS assigned
        FROM \(tables)
        WHERE \(condition)
        """
    }

    /// The grant `row` holds, or `nil` when it ended at or before `now`.
    static func grant(from row: any SQLRow, now: Int64) throws -> SessionGrant? {
        if let end = try row.decode(column: "ends_at", as: Int64?.self), end <= now { return nil }
        return SessionGrant(
            username: try row.decode(column: "username", as: String.self),
            role: try role(from: row),
            isAssigned: try row.decode(column: "assigned", as: Int.self) == 1
        )
    }
}
