import Logging
import ServerStorage
import SQLKit

/// Accounts, assignments, sessions and the admin key, in SQLite or PostgreSQL.
///
/// Every change that touches more than one row runs in a transaction, so a failure leaves
/// nothing half-written. Secrets arrive already hashed; the store never sees a password,
/// session token or admin key.
package final class TokenServerStore: Sendable {
    /// The database the rows live in.
    package let database: FleetDatabase
    private let ownsDatabase: Bool

    private init(database: FleetDatabase, ownsDatabase: Bool) {
        self.database = database
        self.ownsDatabase = ownsDatabase
    }

    /// A store in an already-open database (creating missing tables); the caller keeps
    /// ownership of the database and shuts it down.
    package static func open(in database: FleetDatabase) async throws -> TokenServerStore {
        try await TokenServerSchema.migrate(database)
        return TokenServerStore(database: database, ownsDatabase: false)
    }

    /// Opens the database at `location` (creating missing tables); ``close()`` shuts it down.
    package static func open(_ location: DatabaseLocation, logger: Logger) async throws -> TokenServerStore {
        let database = try await FleetDatabase.open(location, logger: logger)
        do {
            try await TokenServerSchema.migrate(database)
        } catch {
            await database.shutdown()
            throw error
        }
        return TokenServerStore(database: database, ownsDatabase: true)
    }

    /// Shuts the database down if this store opened it.
    package func close() async {
        if ownsDatabase { await database.shutdown() }
    }

    /// Where reads go.
    var sql: any SQLDatabase { database.sql }
    /// Where single statements that write go (see ``ServerStorage/FleetDatabase/writes``).
    var writes: any SQLDatabase { database.writes }
}
