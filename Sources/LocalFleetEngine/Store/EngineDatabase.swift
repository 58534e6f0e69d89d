import FleetAuthServerStorage
import Logging

/// Where the local Fleet Engine keeps its vehicles and trips, and how a server claims them.
package enum EngineDatabase {
    /// The SQLite file in the data directory, when no PostgreSQL URL is given.
    package static let sqliteFileName = "fleet-engine.sqlite"

    /// Takes the engine's lock on `dataDirectory` (so that a second engine on it refuses to
    /// start), then opens the database (`databaseURL`, else the SQLite file in the directory)
    /// with its tables in place. Release the lock after shutting the database down.
    package static func open(dataDirectory: String, databaseURL: String?, logger: Logger) async throws -> (
        database: ServerDatabase, lock: DataDirectoryLock
    ) {
        let lock = try DataDirectoryLock.acquire(
            directory: dataDirectory, name: "fleet-engine", server: "local Fleet Engine")
        do {
            let location = DatabaseLocation(
                dataDirectory: dataDirectory, fileName: sqliteFileName, databaseURL: databaseURL)
            let database = try await ServerDatabase.open(location, logger: logger)
            do {
                try await SQLEngineStore(database: database).prepare()
            } catch {
                await database.shutdown()
                throw error
            }
            return (database, lock)
        } catch {
            lock.release()
            throw error
        }
    }
}
