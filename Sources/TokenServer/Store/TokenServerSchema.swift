import ServerStorage
import SQLKit

/// The token server's tables, created when missing. Table names carry a `token_server_`
/// prefix so that the token server can share a database with other FleetAuth parts.
enum TokenServerSchema {
    /// The PostgreSQL advisory lock that keeps replicas starting together from racing to
    /// create the same tables.
    static let migrationLock: Int64 = 0x666c_6565_7461_7331

    /// The statements, in order; each is safe to run again. A database made by an earlier
    /// version gets the tables it lacks, so upgrading is starting the new version.
    static let statements: [String] = [
        // An account without a password (it logs in only through a linked identity) has
        // TokenServerStore.noPasswordHash here, as shadow(5) has "!": it matches no password.
        """
        CREATE TABLE IF NOT EXISTS token_server_accounts (
            username TEXT PRIMARY KEY,
            role TEXT NOT NULL,
            password_hash TEXT NOT NULL,
            created_at BIGINT NOT NULL
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS token_server_assignments (
            kind TEXT NOT NULL,
            resource_id TEXT NOT NULL,
            username TEXT NOT NULL REFERENCES token_server_accounts (username) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (kind, resource_id)
        )
        """,
        "CREATE INDEX IF NOT EXISTS token_server_assignments_by_username ON token_server_assignments (username)",
        // The OpenID Connect user (issuer and subject) whose ID tokens act as an account: at
        // most one per account, and one account per user.
        """
        CREATE TABLE IF NOT EXISTS token_server_identities (
            issuer TEXT NOT NULL,
            subject TEXT NOT NULL,
            username TEXT NOT NULL UNIQUE REFERENCES token_server_accounts (username) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (issuer, subject)
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS token_server_sessions (
            token_hash TEXT PRIMARY KEY,
            username TEXT NOT NULL REFERENCES token_server_accounts (username) ON DELETE CASCADE,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL
        )
        """,
        "CREATE INDEX IF NOT EXISTS token_server_sessions_by_username ON token_server_sessions (username)",
        "CREATE INDEX IF NOT EXISTS token_server_sessions_by_expiry ON token_server_sessions (expires_at)",
        """
        CREATE TABLE IF NOT EXISTS token_server_admin_key (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            key_hash TEXT NOT NULL,
            created_at BIGINT NOT NULL
        )
        """,
    ]

    /// Creates whatever tables are missing (and, on PostgreSQL, the change signals), in one
    /// transaction.
    static func migrate(_ database: FleetDatabase) async throws {
        let kind = database.kind
        try await database.transaction { db in
            if kind == .postgres {
                try await db.raw("SELECT pg_advisory_xact_lock(\(bind: migrationLock))").run()
            }
            for statement in statements + (kind == .postgres ? postgresChangeSignals : []) {
                try await db.raw(SQLQueryString(statement)).run()
            }
        }
    }
}
