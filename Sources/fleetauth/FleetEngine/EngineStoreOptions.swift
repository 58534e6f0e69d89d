import ArgumentParser
import FleetAuthServerStorage
import LocalFleetEngine
import Logging

/// Where a local Fleet Engine keeps its state: `--data-dir` (SQLite, and the engine's lock)
/// or `--database-url` (PostgreSQL), and the provider, `--project`.
struct EngineStoreOptions: ParsableArguments {
    @Option(help: "The folder for the SQLite database (created when missing), and the engine's lock.")
    var dataDir = "fleetauth-data"

    @Option(help: "The Cloud project id: the only provider served.")
    var project: String

    @Option(help: "A PostgreSQL URL to keep vehicles and trips in instead of SQLite.")
    var databaseURL: String?

    /// The database, with its tables in place, and the engine's lock on the data directory: an
    /// engine running on the same directory is refused (export it through its console instead).
    /// On PostgreSQL the lock is the directory's only, so an engine elsewhere on the same
    /// database is not seen.
    func open(logger: Logger) async throws -> (database: ServerDatabase, lock: DataDirectoryLock) {
        try await EngineDatabase.open(dataDirectory: dataDir, databaseURL: databaseURL, logger: logger)
    }
}
