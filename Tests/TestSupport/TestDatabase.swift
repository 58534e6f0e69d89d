import FleetAuthServerStorage
import Foundation
import Logging
import SQLKit
import Testing

/// The databases store tests run against.
package enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// An SQLite file.
    case sqlite
    /// PostgreSQL (the server `FLEETAUTH_TEST_POSTGRES_URL` names).
    case postgres

    /// The backend's name in test results.
    package var testDescription: String { rawValue }
}

/// A fresh, empty database for one test: an SQLite file in a temporary folder, or a new
/// database on the PostgreSQL server named by `FLEETAUTH_TEST_POSTGRES_URL`, dropped after.
package struct TestDatabase: Sendable {
    /// A logger for the stores tests open.
    package static let logger = Logger(label: "test")

    /// Where the database is.
    package let location: DatabaseLocation
    /// A temporary folder of the test's own (the SQLite file is in it), removed after.
    package let folder: String
    private let dropDatabase: @Sendable () async -> Void

    /// Runs `body` with a fresh database of `backend`. Without PostgreSQL the PostgreSQL case
    /// is skipped with a message, except in CI, where it fails.
    package static func with<Result>(_ backend: StoreBackend, _ body: (TestDatabase) async throws -> Result)
        async throws -> Result
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-test-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database: TestDatabase
        switch backend {
        case .sqlite:
            database = TestDatabase(location: .sqlite(path: folder + "/test.sqlite"), folder: folder, dropDatabase: {})
        case .postgres:
            database = try await makePostgres(folder: folder)
        }
        do {
            let result = try await body(database)
            await database.dropDatabase()
            return result
        } catch {
            await database.dropDatabase()
            throw error
        }
    }

    private static func makePostgres(folder: String) async throws -> TestDatabase {
        let fresh = try await TestPostgres.makeDatabase(on: try TestPostgres.requiredURL())
        return TestDatabase(location: .postgres(url: fresh.url), folder: folder, dropDatabase: fresh.drop)
    }
}
