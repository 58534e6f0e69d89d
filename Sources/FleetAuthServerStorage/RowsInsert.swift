import SQLKit

/// `INSERT INTO table (columns) VALUES (…), (…)`, each value bound or `NULL`, then an optional
/// conflict clause (`ON CONFLICT (id) DO NOTHING`, as SQLite and PostgreSQL spell it): a batch
/// of rows written straight into the serializer. SQLKit's insert builder, which escapes every
/// column's name and nests an expression for each value, spent more time composing a batch
/// than SQLite took to parse it (the engine's journals), and about 13 µs of CPU a token on the
/// record of tokens' writer (docs/performance.md). Table, column names and the clause are the
/// callers' own constants; there is at least one row, each with a value for every column.
package struct RowsInsert: SQLExpression {
    /// The table written to.
    package let table: String
    /// The columns, in the order of each row's values.
    package let columns: [String]
    /// The rows, each a value for every column; `nil` writes `NULL`.
    package let rows: [[(any Encodable & Sendable)?]]
    /// What follows the values, such as `ON CONFLICT (id) DO NOTHING`; `nil` for nothing.
    package let conflictClause: String?

    /// The insert of `rows` into `columns` of `table`, followed by `conflictClause`.
    package init(
        into table: String, columns: [String], rows: [[(any Encodable & Sendable)?]], conflictClause: String? = nil
    ) {
        assert(!rows.isEmpty && rows.allSatisfy { $0.count == columns.count }, "a value for every column")
        self.table = table
        self.columns = columns
        self.rows = rows
        self.conflictClause = conflictClause
    }

    /// Writes the statement, its placeholders in the serializer's dialect.
    package func serialize(to serializer: inout SQLSerializer) {
        serializer.sql.reserveCapacity(serializer.sql.count + 64 + rows.count * (4 + columns.count * 3))
        serializer.binds.reserveCapacity(serializer.binds.count + rows.count * columns.count)
        serializer.write("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ")
        for (index, row) in rows.enumerated() {
            serializer.write(index == 0 ? "(" : ", (")
            for (offset, value) in row.enumerated() {
                if offset > 0 { serializer.write(", ") }
                if let value { serializer.write(bind: value) } else { serializer.write("NULL") }
            }
            serializer.write(")")
        }
        if let conflictClause { serializer.write(" " + conflictClause) }
    }
}
