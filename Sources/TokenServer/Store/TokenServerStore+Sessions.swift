import SQLKit

/// What a live session may do: who it is and, for one resource, whether it is assigned.
public struct SessionGrant: Sendable, Hashable {
    /// The account the session belongs to.
    public let username: String
    /// The account's role.
    public let role: AccountRole
    /// Whether the account is assigned to the resource asked about (`false` when none was).
    public let isAssigned: Bool
}

extension TokenServerStore {
    /// Records a session whose token hashes to `tokenHash`.
    public func createSession(tokenHash: String, username: String, createdAt: Int64, expiresAt: Int64) async throws {
        try await sql.raw("""
            INSERT INTO token_server_sessions (token_hash, username, created_at, expires_at)
            VALUES (\(bind: tokenHash), \(bind: username), \(bind: createdAt), \(bind: expiresAt))
            """).run()
    }

    /// Ends the session whose token hashes to `tokenHash`; `false` if there was none.
    @discardableResult
    public func endSession(tokenHash: String) async throws -> Bool {
        let deleted = try await sql.raw("DELETE FROM token_server_sessions WHERE token_hash = \(bind: tokenHash) RETURNING username").first()
        return deleted != nil
    }

    /// The grant of the unexpired session whose token hashes to `tokenHash`, with whether its
    /// account is assigned to `resource` — one query, so a token request costs one round trip
    /// and sees a revocation the moment it commits, on every replica.
    public func sessionGrant(tokenHash: String, now: Int64, resource: Resource?) async throws -> SessionGrant? {
        let row = try await sql.raw("""
            SELECT a.username AS username, a.role AS role,
                CASE WHEN EXISTS (
                    SELECT 1 FROM token_server_assignments x
                    WHERE x.kind = \(bind: resource?.kind.rawValue ?? "") AND x.resource_id = \(bind: resource?.id ?? "") AND x.username = a.username
                ) THEN 1 ELSE 0 END AS assigned
            FROM token_server_sessions s JOIN token_server_accounts a ON a.username = s.username
            WHERE s.token_hash = \(bind: tokenHash) AND s.expires_at > \(bind: now)
            """).first()
        guard let row else { return nil }
        return SessionGrant(
            username: try row.decode(column: "username", as: String.self),
            role: try Self.role(from: row),
            isAssigned: try row.decode(column: "assigned", as: Int.self) == 1
        )
    }

    /// Deletes sessions that expired at or before `now`; returns how many.
    @discardableResult
    public func purgeExpiredSessions(now: Int64) async throws -> Int {
        try await sql.raw("DELETE FROM token_server_sessions WHERE expires_at <= \(bind: now) RETURNING token_hash").all().count
    }

    /// How many sessions `username` has (expired ones included until purged).
    public func sessionCount(username: String) async throws -> Int {
        let row = try await sql.raw("SELECT COUNT(*) AS n FROM token_server_sessions WHERE username = \(bind: username)").first()
        return try row?.decode(column: "n", as: Int.self) ?? 0
    }
}
