import ServerStorage
import SQLKit

extension FleetDatabase {
    /// Caps this SQLite database at `pages` pages (its present size when `nil`), so that the
    /// next write needing a new page fails as on a full disk. The cap is set on the writer
    /// connection, through which every transaction is saved.
    public func capSQLite(atPages pages: Int?) async throws {
        try await transaction { db in
            let current = try await db.raw("PRAGMA page_count").first()?.decode(column: "page_count", as: Int.self) ?? 1
            try await db.raw(SQLQueryString("PRAGMA max_page_count = \(unsafeRaw: String(pages ?? current))")).run()
        }
    }
}
