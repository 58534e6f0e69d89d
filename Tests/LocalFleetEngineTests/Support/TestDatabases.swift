import FleetAuthLocking
import FleetAuthServerStorage
import Foundation
import LocalFleetEngine
import Logging
import TestSupport

/// Databases for store tests: a fresh SQLite file, or the PostgreSQL server CI provides.
enum TestDatabases {
    /// A new SQLite file in a temporary folder.
    static func sqlite() throws -> DatabaseLocation {
        .sqlite(path: try TestEngine.makeFolder() + "/store.sqlite")
    }

    /// Opens `location` and a prepared store in it, runs `body`, and closes the database.
    static func withStore<Result>(at location: DatabaseLocation, _ body: (SQLEngineStore) async throws -> Result)
        async throws -> Result
    {
        let database = try await ServerDatabase.open(location, logger: Logger(label: "test-store"))
        do {
            let store = SQLEngineStore(database: database)
            try await store.prepare()
            let result = try await body(store)
            await database.shutdown()
            return result
        } catch {
            await database.shutdown()
            throw error
        }
    }
}

/// A store that passes saves to a real store, counts them, and can be told to fail or hold
/// them: the faults the engine must survive.
final class FaultyStore: EngineStore {
    private struct Counters {
        var saves = 0
        var records = 0
        var failNext = false
        var held = false
        var waiting = 0
    }

    private let inner: any EngineStore
    private let counters = Locked(Counters())

    init(_ inner: any EngineStore) {
        self.inner = inner
    }

    /// Saves made (or failed).
    var saves: Int { counters.withLock { $0.saves } }
    /// Records saved.
    var savedRecords: Int { counters.withLock { $0.records } }
    /// Saves waiting because the store is held.
    var waiting: Int { counters.withLock { $0.waiting } }

    /// Makes the next save fail.
    func failNextSave() { counters.withLock { $0.failNext = true } }
    /// Makes saves wait until ``release()``.
    func hold() { counters.withLock { $0.held = true } }
    /// Lets waiting and later saves through.
    func release() { counters.withLock { $0.held = false } }

    func load(provider: String) async throws -> ProviderSnapshot {
        try await inner.load(provider: provider)
    }

    func health() async -> DatabaseHealth {
        await inner.health()
    }

    func save(_ records: [ResourceChange], provider: String) async throws {
        counters.withLock { $0.waiting += 1 }
        while counters.withLock({ $0.held }) { try await Task.sleep(for: .milliseconds(2)) }
        let fail = counters.withLock { counters in
            defer { counters.failNext = false }
            counters.waiting -= 1
            counters.saves += 1
            return counters.failNext
        }
        if fail { throw TestFailure("injected save failure") }
        try await inner.save(records, provider: provider)
        counters.withLock { $0.records += records.count }
    }
}
