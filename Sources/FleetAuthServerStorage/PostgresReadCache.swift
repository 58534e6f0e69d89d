import FleetAuthLocking
import Foundation
import SQLKit

/// The answers PostgreSQL gave to ``ServerDatabase/first(_:)``, served again from memory while
/// its ``PostgresChangeFeed`` says nothing has changed since they were read: what SQLite's
/// ``SQLiteReadCache`` is to a file, for a database other processes change too. Rows are kept
/// as plain values (text, integers, bytes, NULL), as ``SQLiteDirectRow`` holds them; a row
/// with another kind of value is not kept. At most ``capacity`` answers, all dropped when full.
final class PostgresReadCache: Sendable {
    /// A read: its SQL and its binds.
    struct Key: Hashable, Sendable {
        let sql: String
        let binds: [SQLiteDirectReader.Value]
    }

    static let capacity = 100_000

    private let feed: PostgresChangeFeed
    private let answers = Locked<(generation: UInt64, rows: [Key: SQLiteDirectRow?])>((0, [:]))

    /// A cache that `feed` keeps honest.
    init(feed: PostgresChangeFeed) {
        self.feed = feed
    }

    /// The answer to `key` read under the feed's present generation, `.some(nil)` for one that
    /// found no row, or `nil` when there is none to serve (or nothing may be served now).
    func answer(to key: Key) -> SQLiteDirectRow?? {
        guard let generation = feed.generation else { return nil }
        return answers.withLock { answers in
            guard answers.generation == generation else { return nil }
            return answers.rows[key]
        }
    }

    /// Reads `key`'s answer with `read` and keeps it, unless a change was heard (or listening
    /// stopped) between before the read and after it: then the answer is served once, not kept.
    func reading(_ key: Key, _ read: () async throws -> (any SQLRow)?) async throws -> (any SQLRow)? {
        let before = feed.generation
        let row = try await read()
        guard let before, let kept = Self.values(of: row) else { return row }
        answers.withLock { answers in
            guard feed.generation == before else { return }
            if answers.generation != before || answers.rows.count >= Self.capacity { answers = (before, [:]) }
            answers.rows[key] = kept
        }
        return row
    }

    /// `row` as plain values (`.some(nil)` for no row), or `nil` when a value is of another kind.
    private static func values(of row: (any SQLRow)?) -> SQLiteDirectRow?? {
        guard let row else { return .some(nil) }
        var values: [String: SQLiteDirectReader.Value] = [:]
        for column in row.allColumns {
            if (try? row.decodeNil(column: column)) == true {
                values[column] = .null
            } else if let integer = try? row.decode(column: column, as: Int64.self) {
                values[column] = .integer(integer)
            } else if let text = try? row.decode(column: column, as: String.self) {
                values[column] = .text(text)
            } else if let bytes = try? row.decode(column: column, as: Data.self) {
                values[column] = .blob(bytes)
            } else {
                return nil
            }
        }
        return .some(SQLiteDirectRow(values: values))
    }
}
