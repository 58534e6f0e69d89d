/// Rows one connection has read, kept while the database is unchanged: the answer to a
/// repeated read without SQLite's work and its file locks.
///
/// Every row belongs to the WAL-index header read just before it was read (see
/// ``SQLiteWALIndex``). A header that differs means some commit came between, so all rows are
/// dropped; one that reads the same means none did, so they are still the database's answers.
/// Only rows are kept, not the absence of one, so that requests with made-up keys (unknown
/// session tokens) neither fill it nor push out real answers. Bounded: when full, it starts
/// again empty.
struct SQLiteReadCache {
    /// A read: its prepared statement and its binds.
    struct Key: Hashable {
        let statement: OpaquePointer
        let binds: [SQLiteDirectReader.Value]
    }

    /// A row by column name.
    typealias Row = [String: SQLiteDirectReader.Value]

    private let capacity: Int
    private var rows: [Key: Row] = [:]
    /// The header the rows belong to.
    private var header: SQLiteWALIndex.Header?

    /// A cache of at most `capacity` rows.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The row kept for `key` while the header still reads `now` (as it did when the row was
    /// read); else the one `read` gives, kept under `now` when there is one.
    mutating func row(
        for key: Key, header now: SQLiteWALIndex.Header, orRead read: () throws(SQLiteDirectReader.Unavailable) -> Row?
    ) throws(SQLiteDirectReader.Unavailable) -> Row? {
        if now != header {
            rows.removeAll(keepingCapacity: true)
            header = now
        } else if let kept = rows[key] {
            return kept
        }
        guard let row = try read() else { return nil }
        if rows.count >= capacity { rows.removeAll() }
        rows[key] = row
        return row
    }
}
