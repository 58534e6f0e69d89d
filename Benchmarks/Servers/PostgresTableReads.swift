import FleetAuthServerStorage
import Logging

/// How many times PostgreSQL has read the tables of a database, as `pg_stat_user_tables`
/// counts them (sequential and index scans, by every connection): read before and after a run,
/// the statements a server sent that reached its rows.
struct PostgresTableReads {
    private let database: ServerDatabase

    /// Opens a connection of its own to the database `url` names.
    static func open(url: String, logger: Logger) async throws -> PostgresTableReads {
        PostgresTableReads(database: try await ServerDatabase.open(.postgres(url: url), logger: logger))
    }

    /// The count so far. A backend reports its counts within PostgreSQL's idle interval (10 s)
    /// of going idle, so read it that long after a run ends.
    func count() async throws -> Int {
        let row = try await database.sql.raw(
            "SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0)::bigint AS reads FROM pg_stat_user_tables"
        ).first()
        return try row?.decode(column: "reads", as: Int.self) ?? 0
    }

    /// Closes its connection.
    func close() async {
        await database.shutdown()
    }
}
