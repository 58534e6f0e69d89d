import FleetAuthServerStorage
import Foundation
import SQLKit

/// The token server's tables, and the steps that brought them to this version. Table names
/// carry a `token_server_` prefix so that the token server can share a database with other
/// FleetAuth parts.
///
/// A database records its schema's version in `token_server_schema`, and the oldest version
/// whose code can still use it. At start, under one transaction (and on PostgreSQL an advisory
/// lock, so that replicas starting together take turns), the steps past the recorded version
/// run in order. A database from before versions were recorded (0.9) is version 0: step 1 is
/// its tables, each made only if missing. Steps add tables and columns, or change indexes, and
/// never take away what older code reads, so a replica of the version before serves beside a
/// new one during a rolling upgrade; a step that cannot (it drops or changes what older code
/// reads) raises `oldestCompatible`, and older code then refuses to start on the database
/// instead of half-reading it.
enum TokenServerSchema {
    /// What a database holds: the grants (accounts, sessions, …), the record of tokens, or,
    /// on PostgreSQL, both (on SQLite the record has a file of its own).
    enum Part: Sendable {
        /// Accounts, assignments, identities, sessions, the admin key.
        case grants
        /// The record of token requests.
        case record
    }

    /// One step of the schema.
    struct Migration: Sendable {
        /// The version the database is at after this step.
        let version: Int
        /// The oldest version whose code can use the database after this step.
        let oldestCompatible: Int
        /// What the statements change; they run only in a database that holds it.
        let part: Part
        /// The statements, in order.
        let statements: [String]
    }

    /// Every step, oldest first; a new one goes at the end, with the next version.
    static let migrations: [Migration] = [
        Migration(version: 1, oldestCompatible: 1, part: .grants, statements: version1),
        Migration(version: 2, oldestCompatible: 1, part: .record, statements: version2),
        Migration(version: 3, oldestCompatible: 1, part: .grants, statements: version3),
        Migration(version: 4, oldestCompatible: 1, part: .record, statements: version4),
        Migration(version: 5, oldestCompatible: 1, part: .record, statements: version5),
    ]

    /// The version this code brings a database to.
    static var version: Int { migrations.last?.version ?? 0 }

    /// The PostgreSQL advisory lock that keeps replicas starting together from racing to
    /// migrate the same tables.
    static let migrationLock: Int64 = 0x666c_6565_7461_7331

    /// Where the version is kept: one row.
    static let versionTable = """
        CREATE TABLE IF NOT EXISTS token_server_schema (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            version INTEGER NOT NULL,
            oldest_compatible INTEGER NOT NULL,
            migrated_at BIGINT NOT NULL
        )
        """

    /// Version 1, the tables of 0.9: accounts, assignments, identities, sessions and the admin
    /// key, each made only if missing (a 0.9 database has them already).
    static let version1: [String] = [
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

    /// Version 2: the record of token requests (``TokenRecord``), with an index for each
    /// question it answers: who holds a token for a resource (by its id and expiry), what an
    /// account asked for, and what is old enough to prune.
    static let version2: [String] =
        [
            """
            CREATE TABLE IF NOT EXISTS token_server_token_records (
                id TEXT PRIMARY KEY,
                recorded_at BIGINT NOT NULL,
                outcome TEXT NOT NULL,
                reason TEXT,
                account TEXT NOT NULL,
                role TEXT,
                kind TEXT NOT NULL,
                vehicle_id TEXT,
                trip_id TEXT,
                delivery_vehicle_id TEXT,
                tracking_id TEXT,
                kid TEXT,
                issued_at BIGINT,
                expires_at BIGINT,
                session_id TEXT,
                client_address TEXT
            )
            """
        ]
        + ["vehicle_id", "trip_id", "delivery_vehicle_id", "tracking_id", "account"].map { column in
            "CREATE INDEX IF NOT EXISTS token_server_token_records_by_\(column) ON token_server_token_records (\(column), id)"
        } + [
            "CREATE INDEX IF NOT EXISTS token_server_token_records_by_time ON token_server_token_records (recorded_at)"
        ]

    /// Version 3: the signing keys (``SigningKeyRing``), every key a role has signed with, so
    /// that a rotation reaches every replica (each reads the table's version once a second) and
    /// an earlier key stays published until its last token expired. Older code reads its keys
    /// from `keys/` and ignores the table.
    static let version3: [String] = [
        """
        CREATE TABLE IF NOT EXISTS token_server_signing_keys (
            kid TEXT PRIMARY KEY,
            role TEXT NOT NULL,
            key_json TEXT NOT NULL,
            added_at BIGINT NOT NULL,
            superseded_at BIGINT,
            retired_at BIGINT
        )
        """,
        "CREATE INDEX IF NOT EXISTS token_server_signing_keys_by_role ON token_server_signing_keys (role, added_at)",
    ]

    /// Version 4: the record's indexes of resources hold only the records of their kind of
    /// resource (partial indexes), so that writing a record adds to one of them, not to all
    /// four. A question about a resource (`vehicle_id = ?`) uses them as before.
    static let version4: [String] = ["vehicle_id", "trip_id", "delivery_vehicle_id", "tracking_id"].flatMap { column in
        [
            "DROP INDEX IF EXISTS token_server_token_records_by_\(column)",
            "CREATE INDEX token_server_token_records_by_\(column) ON token_server_token_records (\(column), id) WHERE \(column) IS NOT NULL",
        ]
    }

    /// Version 5: the record keeps only its indexes of resources. An index of accounts took a
    /// page write for each token at its account's place, about 17 µs of SQLite's CPU a token,
    /// a sixth of what the record costs (docs/performance.md); a question about an account now
    /// reads the record newest first. The index of times goes too: a record's id begins with
    /// its time in milliseconds, so `since` and pruning read ranges of ids.
    static let version5: [String] = ["account", "time"].map { name in
        "DROP INDEX IF EXISTS token_server_token_records_by_\(name)"
    }

    /// Brings `database`, which holds `parts`, to ``version``: runs the steps past its
    /// recorded version that change what it holds (and, on PostgreSQL, makes the change signals
    /// that are missing), in one transaction. Throws ``SchemaTooNew`` for a database that newer
    /// code changed beyond what this code can use.
    static func migrate(_ database: ServerDatabase, parts: Set<Part>) async throws {
        let kind = database.kind
        let now = Int64(Date().timeIntervalSince1970)
        try await database.transaction { db in
            if kind == .postgres {
                try await db.raw("SELECT pg_advisory_xact_lock(\(bind: migrationLock))").run()
            }
            try await db.raw(SQLQueryString(versionTable)).run()
            let row = try await db.raw("SELECT version, oldest_compatible FROM token_server_schema WHERE id = 1")
                .first()
            let recorded = try row.map {
                (
                    version: try $0.decode(column: "version", as: Int.self),
                    oldestCompatible: try $0.decode(column: "oldest_compatible", as: Int.self)
                )
            }
            if let recorded, recorded.oldestCompatible > version {
                throw SchemaTooNew(
                    recorded: recorded.version, oldestCompatible: recorded.oldestCompatible, known: version)
            }
            let steps = migrations.filter { $0.version > recorded?.version ?? 0 }
            let statements = steps.filter { parts.contains($0.part) }.flatMap(\.statements)
            for statement in statements + (kind == .postgres && parts.contains(.grants) ? postgresChangeSignals : []) {
                try await db.raw(SQLQueryString(statement)).run()
            }
            guard let last = steps.last else { return }
            let oldestCompatible = max(recorded?.oldestCompatible ?? 0, steps.map(\.oldestCompatible).max() ?? 0)
            try await db.raw(
                """
                INSERT INTO token_server_schema (id, version, oldest_compatible, migrated_at)
                VALUES (1, \(bind: last.version), \(bind: oldestCompatible), \(bind: now))
                ON CONFLICT (id) DO UPDATE SET version = excluded.version, oldest_compatible = excluded.oldest_compatible,
                    migrated_at = excluded.migrated_at
                """
            ).run()
        }
    }
}

/// The refusal to open a database that newer code changed beyond what this code can use.
package struct SchemaTooNew: Error, CustomStringConvertible {
    /// The version recorded in the database.
    package let recorded: Int
    /// The oldest version whose code can use the database.
    package let oldestCompatible: Int
    /// The newest version this code knows.
    package let known: Int

    /// What went wrong and what to do, in words.
    package var description: String {
        "the token server's database is at schema version \(recorded), written by a newer fleetauth, and needs one that knows "
            + "schema version \(oldestCompatible) or later; this fleetauth knows versions up to \(known): run the newer fleetauth, "
            + "or restore a backup made before the upgrade"
    }
}
