import Logging
import ServerStorage

/// How many transactions PostgreSQL has ended in a database, as `pg_stat_database` counts them
/// (committed and rolled back, by every connection): read before and after a run, the work a
/// server gave the database.
struct PostgresTransactions {
    private let database: FleetDatabase

    /// Opens a connection of its own to the database `url` names.
    static func open(url: String, logger: Logger) async throws -> PostgresTransactions {
        PostgresTransactions(database: try await FleetDatabase.open(.postgres(url: url), logger: logger))
    }

    /// The count so far. A backend reports its counts within a second of going idle, so read
    /// it a moment after a run ends.
    func count() async throws -> Int {
        let row = try await database.sql.raw(
            "SELECT (xact_commit + xact_rollback)::bigint AS ended FROM pg_stat_database WHERE datname = current_database()"
        ).first()
        return try row?.decode(column: "ended", as: Int.self) ?? 0
    }

    /// Closes its connection.
    func close() async {
        await database.shutdown()
    }
}
