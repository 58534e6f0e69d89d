import SQLKit

extension TokenServerStore {
    /// Assigns `resource` to the account `username`, replacing whoever had it. The account
    /// must exist and have the role the resource's kind needs.
    package func assign(_ resource: Resource, to username: String, at now: Int64) async throws {
        try await database.transaction { db in
            let row = try await db.raw("SELECT role FROM token_server_accounts WHERE username = \(bind: username)")
                .first()
            guard let row else { throw StoreError.noSuchAccount(username: username) }
            let role = try Self.role(from: row)
            guard resource.kind.accountRoles.contains(role) else {
                throw StoreError.wrongRole(username: username, role: role, resource: resource)
            }
            try await db.raw(
                """
                INSERT INTO token_server_assignments (kind, resource_id, username, created_at)
                VALUES (\(bind: resource.kind.rawValue), \(bind: resource.id), \(bind: username), \(bind: now))
                ON CONFLICT (kind, resource_id) DO UPDATE SET username = excluded.username, created_at = excluded.created_at
                """
            ).run()
        }
    }

    /// Removes whoever is assigned to `resource`; `false` if nobody was.
    @discardableResult
    package func unassign(_ resource: Resource) async throws -> Bool {
        let deleted = try await writes.raw(
            """
            DELETE FROM token_server_assignments
            WHERE kind = \(bind: resource.kind.rawValue) AND resource_id = \(bind: resource.id)
            RETURNING username
            """
        ).first()
        return deleted != nil
    }

    /// The assignments of `username`, or of every account when `nil`, by kind and id.
    package func assignments(username: String? = nil) async throws -> [Assignment] {
        try await assignments(matching: AssignmentQuery(username: username))
    }

    /// The assignments `query` asks for, by kind and id.
    package func assignments(matching query: AssignmentQuery) async throws -> [Assignment] {
        var conditions: [SQLQueryString] = []
        if let kind = query.kind { conditions.append("kind = \(bind: kind.rawValue)") }
        if let id = query.resourceID { conditions.append("resource_id = \(bind: id)") }
        if let username = query.username { conditions.append("username = \(bind: username)") }
        if let usernames = query.usernames {
            conditions.append("username >= \(bind: usernames.lowerBound) AND username <= \(bind: usernames.upperBound)")
        }
        if let after = query.after {
            conditions.append(
                "(kind > \(bind: after.kind.rawValue) OR (kind = \(bind: after.kind.rawValue) AND resource_id > \(bind: after.id)))"
            )
        }
        var statement: SQLQueryString = "SELECT kind, resource_id, username FROM token_server_assignments"
        for (index, condition) in conditions.enumerated() {
            statement = statement + (index == 0 ? " WHERE " : " AND ") + condition
        }
        statement = statement + " ORDER BY kind, resource_id"
        if query.limit != .max { statement = statement + " LIMIT \(bind: query.limit)" }
        let rows = try await sql.raw(statement).all()
        return try rows.map { row in
            let kindName = try row.decode(column: "kind", as: String.self)
            guard let kind = ResourceKind(rawValue: kindName) else {
                throw StoreCorruption("an assignment has the unknown kind \"\(kindName)\"")
            }
            return Assignment(
                kind: kind,
                resourceID: try row.decode(column: "resource_id", as: String.self),
                username: try row.decode(column: "username", as: String.self)
            )
        }
    }
}

/// Which assignments to list (``TokenServerStore/assignments(matching:)``): every filter given
/// must hold; by kind and id, from after `after`, at most `limit`.
package struct AssignmentQuery: Sendable, Equatable {
    /// Only assignments of this kind of resource.
    package var kind: ResourceKind?
    /// Only assignments of resources with this id.
    package var resourceID: String?
    /// Only this account's.
    package var username: String?
    /// Only those of the accounts whose usernames are in this range.
    package var usernames: ClosedRange<String>?
    /// Only those after this resource (the page before ended with it).
    package var after: Resource?
    /// At most this many.
    package var limit: Int

    /// A query; with no filter, every assignment.
    package init(
        kind: ResourceKind? = nil, resourceID: String? = nil, username: String? = nil,
        usernames: ClosedRange<String>? = nil, after: Resource? = nil,
        limit: Int = .max
    ) {
        self.kind = kind
        self.resourceID = resourceID
        self.username = username
        self.usernames = usernames
        self.after = after
        self.limit = limit
    }
}
