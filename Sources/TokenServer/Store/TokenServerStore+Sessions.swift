import SQLKit

extension TokenServerStore {
    /// Records a session whose token hashes to `tokenHash`.
    package func createSession(tokenHash: String, username: String, createdAt: Int64, expiresAt: Int64) async throws {
        try await writes.raw(
            """
            INSERT INTO token_server_sessions (token_hash, username, created_at, expires_at)
            VALUES (\(bind: tokenHash), \(bind: username), \(bind: createdAt), \(bind: expiresAt))
            """
        ).run()
    }

    /// Ends the session whose token hashes to `tokenHash`; `false` if there was none.
    @discardableResult
    package func endSession(tokenHash: String) async throws -> Bool {
        let deleted = try await writes.raw(
            "DELETE FROM token_server_sessions WHERE token_hash = \(bind: tokenHash) RETURNING username"
        ).first()
        return deleted != nil
    }

    /// The grant of the unexpired session whose token hashes to `tokenHash`, with whether its
    /// account is assigned to `resource` — one query, so a token request costs one round trip
    /// and sees a revocation the moment it commits, on every replica.
    package func sessionGrant(tokenHash: String, now: Int64, resource: Resource?) async throws -> SessionGrant? {
        try await database.first(Self.sessionGrantQuery(tokenHash: tokenHash, resource: resource)).flatMap {
            try Self.grant(from: $0, now: now)
        }
    }

    /// ``sessionGrant(tokenHash:now:resource:)`` read on the calling thread (see
    /// ``FleetAuthServerStorage/ServerDatabase/firstWithoutWaiting(_:)``).
    ///
    /// - Throws: ``FleetAuthServerStorage/ServerDatabase/UnavailableWithoutWaiting`` when it cannot be read at once
    ///   (always on PostgreSQL).
    package func sessionGrantWithoutWaiting(tokenHash: String, now: Int64, resource: Resource?) throws -> SessionGrant?
    {
        try database.firstWithoutWaiting(Self.sessionGrantQuery(tokenHash: tokenHash, resource: resource)).flatMap {
            try Self.grant(from: $0, now: now)
        }
    }

    private static func sessionGrantQuery(tokenHash: String, resource: Resource?) -> SQLQueryString {
        grantQuery(
            joining: "token_server_sessions s JOIN token_server_accounts a ON a.username = s.username",
            where: "s.token_hash = \(bind: tokenHash)",
            endingAt: "s.expires_at",
            resource: resource
        )
    }

    /// Deletes sessions that expired at or before `now`; returns how many.
    @discardableResult
    package func purgeExpiredSessions(now: Int64) async throws -> Int {
        try await writes.raw("DELETE FROM token_server_sessions WHERE expires_at <= \(bind: now) RETURNING token_hash")
            .all().count
    }

    /// How many sessions `username` has (expired ones included until purged).
    package func sessionCount(username: String) async throws -> Int {
        let row = try await sql.raw(
            "SELECT COUNT(*) AS n FROM token_server_sessions WHERE username = \(bind: username)"
        ).first()
        return try row?.decode(column: "n", as: Int.self) ?? 0
    }
}

extension TokenServerStore {
    /// How many unexpired sessions each account whose username is in `usernames` holds at
    /// `now` (accounts with none are absent).
    package func sessionCounts(now: Int64, usernames: ClosedRange<String>) async throws -> [String: Int] {
        let rows = try await sql.raw(
            """
            SELECT username, COUNT(*) AS n FROM token_server_sessions
            WHERE username >= \(bind: usernames.lowerBound) AND username <= \(bind: usernames.upperBound) AND expires_at > \(bind: now)
            GROUP BY username
            """
        ).all()
        return try Dictionary(
            uniqueKeysWithValues: rows.map { row in
                (try row.decode(column: "username", as: String.self), try row.decode(column: "n", as: Int.self))
            })
    }

    /// Ends every session of `username` at once; returns how many there were.
    package func endSessions(username: String) async throws -> Int {
        try await writes.raw(
            "DELETE FROM token_server_sessions WHERE username = \(bind: username) RETURNING token_hash"
        ).all().count
    }
}
