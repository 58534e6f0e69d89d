import FleetAuthServerStorage
import Foundation
import SQLKit
import TestSupport
import Testing

@Suite("RowsInsert: a batch of rows in one statement")
struct RowsInsertTests {
    private struct Row: Decodable, Equatable {
        let id: String
        let count: Int64
        let note: String?
    }

    private func rows(_ database: ServerDatabase) async throws -> [Row] {
        try await database.sql.raw("SELECT id, count, note FROM t ORDER BY id").all(decoding: Row.self)
    }

    private func insert(_ rows: [[(any Encodable & Sendable)?]], conflictClause: String? = nil) -> RowsInsert {
        RowsInsert(into: "t", columns: ["id", "count", "note"], rows: rows, conflictClause: conflictClause)
    }

    @Test(
        "values and NULLs land in their columns; a conflict clause leaves or replaces a row; without one a duplicate fails the whole statement",
        arguments: StoreBackend.allCases)
    func batches(on backend: StoreBackend) async throws {
        try await TestDatabase.with(backend) { test in
            let database = try await ServerDatabase.open(test.location, logger: TestDatabase.logger)
            do {
                try await database.sql.raw("CREATE TABLE t (id TEXT PRIMARY KEY, count BIGINT NOT NULL, note TEXT)")
                    .run()
                try await database.append(insert([["a", Int64(1), "first"], ["b", Int64(2), nil]]))
                #expect(
                    try await rows(database) == [
                        Row(id: "a", count: 1, note: "first"), Row(id: "b", count: 2, note: nil),
                    ])

                try await database.append(
                    insert(
                        [["a", Int64(10), "again"], ["c", Int64(3), nil]], conflictClause: "ON CONFLICT (id) DO NOTHING"
                    ))
                #expect(try await rows(database).map(\.count) == [1, 2, 3], "the row already there is left as it was")

                try await database.append(
                    insert(
                        [["b", Int64(20), "replaced"]],
                        conflictClause: "ON CONFLICT (id) DO UPDATE SET count = excluded.count, note = excluded.note"))
                #expect(try await rows(database)[1] == Row(id: "b", count: 20, note: "replaced"))

                await #expect(throws: (any Error).self) {
                    try await database.append(insert([["d", Int64(4), nil], ["a", Int64(5), nil]]))
                }
                #expect(
                    try await rows(database).map(\.id) == ["a", "b", "c"], "nothing of the failed statement landed")
            } catch {
                await database.shutdown()
                throw error
            }
            await database.shutdown()
        }
    }
}
