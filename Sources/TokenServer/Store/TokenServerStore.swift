import FleetAuthServerStorage
import Foundation
import Logging
import SQLKit

/// Accounts, assignments, sessions and the admin key, in SQLite or PostgreSQL.
///
/// Every change that touches more than one row runs in a transaction, so a failure leaves
/// nothing half-written. Secrets arrive already hashed; the store never sees a password,
/// session token or admin key.
package final class TokenServerStore: Sendable {
    /// The database the rows live in.
    package let database: ServerDatabase
    /// Where the record of tokens is (``TokenRecord``): on SQLite a file of its own beside the
    /// database's, ``recordFileName``, so that writing it leaves alone the answers kept in
    /// memory while the grants' file does not change; on PostgreSQL ``database`` itself, whose
    /// record writes do not drop them.
    package let recordDatabase: ServerDatabase

    /// The record's SQLite file, beside the database's.
    package static let recordFileName = "token-records.sqlite"
    /// The most pages (some 80 MB) the record's WAL holds before a commit copies them back into
    /// its file: the record's writer has that done beside its writes (``checkpointRecord()``),
    /// and this bounds the WAL when those never catch up with a steady stream of writes.
    static let recordCheckpointPages = 20_000

    private init(database: ServerDatabase, recordDatabase: ServerDatabase) {
        self.database = database
        self.recordDatabase = recordDatabase
    }

    /// Opens the database at `location` (and on SQLite the record's file beside it), bringing
    /// their tables to this version (``TokenServerSchema``); ``close()`` shuts them down.
    package static func open(_ location: DatabaseLocation, logger: Logger) async throws -> TokenServerStore {
        let database = try await ServerDatabase.open(location, logger: logger)
        var recordFile: ServerDatabase?
        do {
            if case .sqlite(let path) = location {
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
                recordFile = try await ServerDatabase.open(
                    .sqlite(path: folder + "/" + recordFileName), checkpointPages: recordCheckpointPages,
                    logger: logger)
            }
            try await TokenServerSchema.migrate(database, parts: recordFile == nil ? [.grants, .record] : [.grants])
            if let recordFile { try await TokenServerSchema.migrate(recordFile, parts: [.record]) }
        } catch {
            await recordFile?.shutdown()
            await database.shutdown()
            throw error
        }
        return TokenServerStore(database: database, recordDatabase: recordFile ?? database)
    }

    /// Shuts the databases down.
    package func close() async {
        if recordDatabase !== database { await recordDatabase.shutdown() }
        await database.shutdown()
    }

    /// Where reads go.
    var sql: any SQLDatabase { database.sql }
    /// Where single statements that write go (see ``FleetAuthServerStorage/ServerDatabase/writes``).
    var writes: any SQLDatabase { database.writes }
}
