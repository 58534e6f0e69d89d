import FleetAuthLocking
import FleetAuthServerStorage
import FleetEngineProtos
import Foundation
import SQLKit
import SwiftProtobuf

/// A ``EngineStore`` in an SQL database (SQLite or PostgreSQL) through SQLKit: one row per
/// resource in its kind's table (``ResourceTable``), each holding the generated message in protobuf's binary format
/// (swift-protobuf writes a vehicle so in a quarter of the time its proto3 JSON takes, and
/// SQLite stores the smaller row for less).
///
/// A save appends its rows to the journal (``ResourceJournal``), in one multi-row insert of up to
/// ``rowsPerStatement`` rows, in one transaction when there is more than one statement, so a
/// batch of thousands of location updates costs one commit, and its cost does not grow with
/// the fleet. Once a provider's journals hold ``journalLimit`` rows, the save that takes them
/// there then folds them into the tables, in a transaction of its own.
package struct SQLEngineStore: EngineStore {
    /// Rows per insert or upsert statement (SQLite allows 32,766 bound values; three per row).
    static let rowsPerStatement = 1000
    /// The journal's length, in rows, at which a save folds it.
    package static let defaultJournalLimit = 65_536

    private let database: ServerDatabase
    /// The journal's length at which a save folds it.
    private let journalLimit: Int
    /// Rows in each provider's journal, as far as this store knows: counted by ``load(provider:)``
    /// and every save since.
    private let journalLengths = Locked<[String: Int]>([:])

    /// A store in `database` that folds a provider's journal once it holds `journalLimit` rows;
    /// call ``prepare()`` once before use.
    package init(database: ServerDatabase, journalLimit: Int = defaultJournalLimit) {
        self.database = database
        self.journalLimit = max(1, journalLimit)
    }

    /// Creates the tables when they are missing, and moves in the rows of earlier versions'
    /// tables (``JSONDocumentTables``).
    package func prepare() async throws {
        for table in ResourceTable.allCases {
            try await database.writes.create(table: table.name)
                .ifNotExists()
                .column("provider", type: .text, .notNull)
                .column(table.idColumn, type: .text, .notNull)
                .column("message", type: .blob, .notNull)
                .primaryKey(["provider", table.idColumn])
                .run()
            try await ResourceJournal.create(table, in: database)
        }
        try await JSONDocumentTables.move(Vehicle.self, from: JSONDocumentTables.vehicles, to: .vehicles, in: database)
        try await JSONDocumentTables.move(Trip.self, from: JSONDocumentTables.trips, to: .trips, in: database)
    }

    /// Every resource of `provider`: its tables' rows with its journal replayed over them.
    package func load(provider: String) async throws -> ProviderSnapshot {
        var messages: [ResourceTable: [String: Data]] = [:]
        var journalLength = 0
        for table in ResourceTable.allCases {
            for row in try await rows(of: table, provider: provider) {
                messages[table, default: [:]][row.id] = row.message
            }
            journalLength += try await ResourceJournal.replay(table, provider: provider, from: database.sql) {
                id, message in
                messages[table, default: [:]][id] = message
            }
        }
        journalLengths.withLock { $0[provider] = journalLength }
        func decoded<Resource: SwiftProtobuf.Message>(_ table: ResourceTable, as _: Resource.Type) throws -> [String:
            Resource]
        {
            try (messages[table] ?? [:]).mapValues { try Resource(serializedBytes: $0) }
        }
        return ProviderSnapshot(
            vehicles: try decoded(.vehicles, as: Vehicle.self),
            trips: try decoded(.trips, as: Trip.self),
            deliveryVehicles: try decoded(.deliveryVehicles, as: DeliveryVehicle.self),
            tasks: try decoded(.tasks, as: DeliveryTask.self)
        )
    }

    /// Whether the database answers.
    package func health() async -> DatabaseHealth {
        await database.health()
    }

    /// Saves `records`, all or none (the later record of a resource wins).
    package func save(_ records: [ResourceChange], provider: String) async throws {
        let (statements, journalLength) = try appends(saving: records, provider: provider)
        if statements.count == 1 {
            try await database.executeAtomically(statements[0])
        } else if !statements.isEmpty {
            try await database.transaction { [statements] connection in
                for statement in statements { try await connection.execute(sql: statement) { _ in } }
            }
        }
        journalLengths.withLock { $0[provider] = journalLength }
        if journalLength >= journalLimit { await fold(provider: provider) }
    }

    /// The statements that append `records` to the journals, and the journals' length once
    /// they ran: the latest of each resource is kept first (nil: removed), so a record replaced
    /// in the same batch is never encoded.
    private func appends(saving records: [ResourceChange], provider: String) throws -> (
        statements: [any SQLExpression], journalLength: Int
    ) {
        var latest: [ResourceTable: [String: (any SwiftProtobuf.Message)?]] = [:]
        for record in records {
            let row = record.row
            latest[row.table, default: [:]][row.id] = .some(row.resource)
        }
        var statements: [any SQLExpression] = []
        var appended = 0
        for table in ResourceTable.allCases {
            guard let resources = latest[table] else { continue }
            statements += ResourceJournal.appends(
                try resources.mapValues { try $0.map(Self.message) }, of: table, provider: provider,
                rowsPerStatement: Self.rowsPerStatement)
            appended += resources.count
        }
        return (statements, journalLengths.withLock { $0[provider] ?? 0 } + appended)
    }

    /// Folds the journals of `provider` into its tables, in a transaction of its own after
    /// the appends that filled them were committed: the fold may take longer than a statement
    /// may wait on PostgreSQL, and one that fails loses nothing (the journals keep every row).
    /// It is tried again once half a limit more rows have come.
    private func fold(provider: String) async {
        let statements = ResourceTable.allCases.flatMap { ResourceJournal.fold($0, provider: provider) }
        do {
            try await database.transaction { connection in
                for statement in statements { try await connection.execute(sql: statement) { _ in } }
            }
            journalLengths.withLock { $0[provider] = 0 }
        } catch {
            journalLengths.withLock { $0[provider] = journalLimit / 2 }
        }
    }

    /// What a row holds of `resource`.
    static func message(_ resource: any SwiftProtobuf.Message) throws -> Data {
        try resource.serializedBytes()
    }

    /// The upserts of the `messages` of `table` and the deletes of its ids whose message is
    /// `nil`, at most ``rowsPerStatement`` rows a statement.
    static func statements(_ table: String, _ idColumn: String, _ provider: String, _ messages: [String: Data?])
        -> [any SQLExpression]
    {
        let upserts = messages.filter { $0.value != nil }.map { (key: $0.key, value: $0.value) }
        let deletions = messages.filter { $0.value == nil }.map(\.key)
        var statements: [any SQLExpression] = []
        for start in stride(from: 0, to: upserts.count, by: rowsPerStatement) {
            let slice = upserts[start..<min(start + rowsPerStatement, upserts.count)]
            statements.append(
                RowsInsert(
                    into: table, columns: ["provider", idColumn, "message"],
                    rows: slice.map { [provider, $0.key, $0.value] },
                    conflictClause: "ON CONFLICT (provider, \(idColumn)) DO UPDATE SET message = excluded.message"))
        }
        for start in stride(from: 0, to: deletions.count, by: rowsPerStatement) {
            let ids = deletions[start..<min(start + rowsPerStatement, deletions.count)]
            statements.append(
                SQLQueryString(
                    "DELETE FROM \(unsafeRaw: table) WHERE provider = \(bind: provider) AND \(unsafeRaw: idColumn) IN (\(binds: Array(ids)))"
                ))
        }
        return statements
    }

    /// Deletes every resource of `provider`, all or none: for throwaway providers, such
    /// as a benchmark's in a database that outlives it. Stop any engine serving `provider` first.
    package func removeAll(provider: String) async throws {
        try await database.transaction { connection in
            for table in ResourceTable.allCases {
                try await connection.delete(from: table.name).where("provider", .equal, provider).run()
                try await connection.execute(sql: ResourceJournal.removal(table, provider: provider)) { _ in }
            }
        }
        journalLengths.withLock { $0[provider] = 0 }
    }

    private func rows(of table: ResourceTable, provider: String) async throws -> [(id: String, message: Data)] {
        try await database.sql.select()
            .column(SQLIdentifier(table.idColumn)).column("message")
            .from(table.name)
            .where("provider", .equal, provider)
            .all()
            .map {
                (
                    try $0.decode(column: table.idColumn, as: String.self),
                    try $0.decode(column: "message", as: Data.self)
                )
            }
    }
}
