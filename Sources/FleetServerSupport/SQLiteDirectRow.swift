import SQLKit

/// A row read by ``SQLiteDirectReader``, decoded as SQLKit's rows are: text as `String`,
/// integers as any fixed-width integer type or `Bool`.
struct SQLiteDirectRow: SQLRow {
    let values: [String: SQLiteDirectReader.Value]

    var allColumns: [String] { Array(values.keys) }

    func contains(column: String) -> Bool {
        values[column] != nil
    }

    func decodeNil(column: String) throws -> Bool {
        try value(column) == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let decoded: D? = switch try value(column) {
        case .text(let text): text as? D
        case .integer(let number): (type as? any FixedWidthInteger.Type).flatMap { $0.init(exactly: number) as? D } ?? (type == Bool.self ? (number != 0) as? D : nil)
        case .null: (type as? any ExpressibleByNilLiteral.Type).flatMap { $0.init(nilLiteral: ()) as? D }
        }
        guard let decoded else {
            throw DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "column \(column) is not a \(type)"))
        }
        return decoded
    }

    private func value(_ column: String) throws -> SQLiteDirectReader.Value {
        guard let value = values[column] else {
            throw DecodingError.keyNotFound(SQLiteDirectColumn(column), .init(codingPath: [], debugDescription: "no column \(column)"))
        }
        return value
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
