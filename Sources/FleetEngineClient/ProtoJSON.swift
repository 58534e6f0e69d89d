import Foundation

/// Proto3 JSON as Fleet Engine writes it: camelCase keys, absent fields left out, timestamps
/// as RFC 3339 text in UTC.
enum ProtoJSON {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    /// Writes `value`.
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(withFraction))
        }
        return try encoder.encode(value)
    }

    /// Reads a `Value` from `data`; timestamps may have 0 to 9 fractional digits.
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 timestamp")
            }
            return date
        }
        return try decoder.decode(type, from: data)
    }
}
