/// Rows one connection has read, kept while the database is unchanged: the answer to a
/// repeated read without SQLite's work and its file locks.
///
/// Every entry belongs to the WAL-index header read just before the entries were read (see
/// ``SQLiteWALIndex``). A header that differs means some commit came between, so all entries
/// are dropped; one that reads the same means none did, so they are still the database's
/// answers. Only rows are kept, not the absence of one, so that requests with made-up keys
/// (unknown session tokens) neither fill it nor push out real answers. Bounded: when full, it
/// starts again empty.
struct SQLiteReadCache {
    /// A read: its prepared statement and its binds.
    struct Key: Hashable {
        let statement: OpaquePointer
        let binds: [SQLiteDirectReader.Value]
    }

    /// A read's answer.
    struct Answer {
        /// Its first row, or `nil` when it had none.
        let row: [String: SQLiteDirectReader.Value]?
    }

    private let capacity: Int
    private var answers: [Key: Answer] = [:]
    /// The header the answers belong to.
    private var header: SQLiteWALIndex.Header?

    /// A cache of at most `capacity` answers.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The answer kept for `key`, if the database is as it was when it was read (`header`
    /// is the header now). A new header drops every answer.
    mutating func answer(for key: Key, header now: SQLiteWALIndex.Header) -> Answer? {
        guard now == header else {
            answers.removeAll(keepingCapacity: true)
            header = now
            return nil
        }
        return answers[key]
    }

    /// Keeps `answer`, read after the header was `header` (as given to the last
    /// ``answer(for:header:)``).
    mutating func keep(_ answer: Answer, for key: Key, header read: SQLiteWALIndex.Header) {
        guard read == header, answer.row != nil else { return }
        if answers.count >= capacity { answers.removeAll() }
        answers[key] = answer
    }
}
