import FleetAuthServerStorage
import Foundation
import SQLKit
import SwiftProtobuf

/// The tables of versions that stored each vehicle and trip as its proto3 JSON document.
/// ``SQLEngineStore/prepare()`` moves their rows into its own tables once, then drops them, so
/// a data directory or database written by such a version opens with everything it held.
enum JSONDocumentTables {
    /// The vehicles table of those versions.
    static let vehicles = "fleet_engine_vehicles"
    /// The trips table of those versions.
    static let trips = "fleet_engine_trips"

    /// Moves every row of `jsonTable`, decoded as `Resource`, into `table` and drops
    /// `jsonTable`, all or none; does nothing when there is no `jsonTable`. Engines starting at
    /// once on one database move it once: the first takes it, the others find it gone.
    static func move<Resource: SwiftProtobuf.Message>(
        _: Resource.Type, from jsonTable: String, to table: ResourceTable, in database: ServerDatabase
    ) async throws {
        guard try await exists(jsonTable, kind: database.kind, in: database.sql) else { return }
        var options = JSONDecodingOptions()
        options.ignoreUnknownFields = true
        try await database.transaction { [options] connection in
            // SQLite's transaction holds the write lock from its start; PostgreSQL's takes a
            // lock of its own. Either way the table is looked for again under it.
            if database.kind == .postgres {
                try await connection.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: jsonTable)))").run()
            }
            guard try await exists(jsonTable, kind: database.kind, in: connection) else { return }
            var messages: [String: [String: Data?]] = [:]
            for row in try await connection.select().column("provider").column(SQLIdentifier(table.idColumn)).column(
                "document"
            ).from(jsonTable).all() {
                let resource = try Resource(
                    jsonString: try row.decode(column: "document", as: String.self), options: options)
                let provider = try row.decode(column: "provider", as: String.self)
                messages[provider, default: [:]][try row.decode(column: table.idColumn, as: String.self)] =
                    try SQLEngineStore.message(resource)
            }
            for (provider, messages) in messages {
                for statement in SQLEngineStore.statements(table.name, table.idColumn, provider, messages) {
                    try await connection.execute(sql: statement) { _ in }
                }
            }
            try await connection.drop(table: jsonTable).run()
        }
    }

    private static func exists(_ table: String, kind: DatabaseKind, in database: any SQLDatabase) async throws -> Bool {
        let query: SQLQueryString =
            switch kind {
            case .sqlite: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = \(bind: table)"
            case .postgres:
                "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = \(bind: table)"
            }
        return try await database.raw(query).first() != nil
    }
}
