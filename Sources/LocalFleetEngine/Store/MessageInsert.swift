import Foundation
import SQLKit

/// `INSERT INTO table (provider, id, message) VALUES (…), (…)`, each message bound or `NULL`,
/// and with `replacing`, `ON CONFLICT (provider, id) DO UPDATE SET message = excluded.message`:
/// the rows of ``SQLEngineStore``'s tables and of its journals (``ResourceJournal``), written
/// straight into the serializer (SQLKit's insert builder spent more time composing a batch of a
/// hundred rows than SQLite took to parse it). Table and column names are the store's own
/// constants, plain lowercase words.
struct MessageInsert: SQLExpression {
    let table: String
    let idColumn: String
    let provider: String
    let rows: ArraySlice<(key: String, value: Data?)>
    var replacing = false

    func serialize(to serializer: inout SQLSerializer) {
        serializer.sql.reserveCapacity(160 + rows.count * 24)
        serializer.binds.reserveCapacity(serializer.binds.count + rows.count * 3)
        serializer.write("INSERT INTO \(table) (provider, \(idColumn), message) VALUES ")
        for (index, row) in rows.enumerated() {
            serializer.write(index == 0 ? "(" : ", (")
            serializer.write(bind: provider)
            serializer.write(", ")
            serializer.write(bind: row.key)
            serializer.write(", ")
            if let message = row.value { serializer.write(bind: message) } else { serializer.write("NULL") }
            serializer.write(")")
        }
        if replacing {
            serializer.write(" ON CONFLICT (provider, \(idColumn)) DO UPDATE SET message = excluded.message")
        }
    }
}
