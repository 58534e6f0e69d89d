import SQLKit

extension TokenServerStore {
    /// Assigns `resource` to the account `username`, replacing whoever had it. The account
    /// must exist and have the role the resource's kind needs.
    package func assign(_ resource: Resource, to username: String, at now: Int64) async throws {
        try await database.transaction { db in
            let row = try await db.raw("SELECT role FROM token_server_accounts WHERE username = \(bind: username)").first()
            guard let row else { throw StoreError.noSuchAccount(username: username) }
            let role = try Self.role(from: row)
            guard resource.kind.accountRoles.contains(role) else {
                throw StoreError.wrongRole(username: username, role: role, resource: resource)
            }
            try await db.raw("""
                INSERT INTO token_server_assignments (kind, resource_id, username, created_at)
                VALUES (\(bind: resource.kind.rawValue), \(bind: resource.id), \(bind: username), \(bind: now))
                ON CONFLICT (kind, resource_id) DO UPDATE SET username = excluded.username, created_at = excluded.created_at
                """).run()
        }
    }

    /// Removes whoever is assigned to `resource`; `false` if nobody was.
    @discardableResult
    package func unassign(_ resource: Resource) async throws -> Bool {
        let deleted = try await writes.raw("""
            DELETE FROM token_server_assignments
            WHERE kind = \(bind: resource.kind.rawValue) AND resource_id = \(bind: resource.id)
            RETURNING username
            """).first()
        return deleted != nil
    }

    /// The assignments of `username`, or of every account when `nil`, by kind and id.
    package func assignments(username: String? = nil) async throws -> [Assignment] {
        let rows: [any SQLRow]
        if let username {
            rows = try await sql.raw("""
                SELECT kind, resource_id, username FROM token_server_assignments
                WHERE username = \(bind: username) ORDER BY kind, resource_id
                """).all()
        } else {
            rows = try await sql.raw("SELECT kind, resource_id, username FROM token_server_assignments ORDER BY kind, resource_id").all()
        }
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
