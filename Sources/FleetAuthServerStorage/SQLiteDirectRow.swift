import Foundation
import SQLKit

/// A row read by ``SQLiteDirectReader``, decoded as SQLKit's rows are: text as `String`,
/// integers as any fixed-width integer type or `Bool`, blobs as `Data`.
struct SQLiteDirectRow: SQLRow {
    /// The row's values by column name.
    let values: [String: SQLiteDirectReader.Value]

    /// The row's column names.
    var allColumns: [String] { Array(values.keys) }

    /// Whether the row has `column`.
    func contains(column: String) -> Bool {
        values[column] != nil
    }

    /// Whether `column` is NULL; throws when there is no such column.
    func decodeNil(column: String) throws -> Bool {
        try value(column) == .null
    }

    /// `column` as `type`, an optional type taking NULL as `nil`; throws `DecodingError` when
    /// it is missing or holds another kind of value.
    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        if let optional = type as? any OptionalColumn.Type, let decoded = try optional.decode(column, from: self) as? D
        {
            return decoded
        }
        let decoded: D? =
            switch try value(column) {
            case .text(let text): text as? D
            case .blob(let bytes): bytes as? D
            case .integer(let number):
                (type as? any FixedWidthInteger.Type).flatMap { $0.init(exactly: number) as? D }
                    ?? (type == Bool.self ? (number != 0) as? D : nil)
            case .null: nil
            }
        guard let decoded else {
            throw DecodingError.typeMismatch(
                type, .init(codingPath: [], debugDescription: "column \(column) is not a \(type)"))
        }
        return decoded
    }

    /// The value of `column`, or a `keyNotFound` error.
    private func value(_ column: String) throws -> SQLiteDirectReader.Value {
        guard let value = values[column] else {
            throw DecodingError.keyNotFound(
                SQLiteDirectColumn(column), .init(codingPath: [], debugDescription: "no column \(column)"))
        }
        return value
    }
}

/// An optional type a column decodes to: NULL as `nil`, anything else as its wrapped type.
private protocol OptionalColumn {
    static func decode(_ column: String, from row: SQLiteDirectRow) throws -> Self
}

extension Optional: OptionalColumn where Wrapped: Decodable {
    fileprivate static func decode(_ column: String, from row: SQLiteDirectRow) throws -> Self {
        try row.decodeNil(column: column) ? nil : row.decode(column: column, as: Wrapped.self)
    }
}

/// A column name as a coding key, for decoding errors.
private struct SQLiteDirectColumn: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
