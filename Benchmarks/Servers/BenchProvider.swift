import FleetAuthServerStorage
import Foundation
import LocalFleetEngine
import Logging

/// The Fleet Engine provider one bench run keeps its vehicles under: a name of its own, so that
/// runs on one PostgreSQL database never meet, and its rows deleted at the end.
enum BenchProvider {
    /// A new provider name: `prefix`, a hyphen and eight lowercase hex digits.
    static func named(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// Deletes `provider`'s vehicles and trips from `store` (a PostgreSQL database keeps them
    /// otherwise), then closes `database`; a failure to delete is only logged, as the
    /// measurements stand.
    static func remove(
        _ provider: String, from store: SQLEngineStore, thenClose database: ServerDatabase, logger: Logger
    )
        async
    {
        do {
            try await store.removeAll(provider: provider)
        } catch {
            logger.warning(
                "could not delete the benchmark's vehicles", metadata: ["provider": "\(provider)", "error": "\(error)"])
        }
        await database.shutdown()
    }
}
