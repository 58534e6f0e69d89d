/// A coding key for any field name, to see every field an object carries.
struct AnyCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// The fields of a JSON object, refusing any field that `Keys` does not name, as Google's
/// proto3 JSON parser does ("unknown field"), instead of silently dropping it.
///
/// One container serves both the check and the decoding: building a keyed container indexes
/// the object, and this is the hot path of every location update. A field the object does
/// not have is answered without asking the container (most of a type's fields are absent
/// from a typical body).
struct StrictContainer<Keys: CodingKey> {
    private let container: KeyedDecodingContainer<AnyCodingKey>
    private let present: [AnyCodingKey]

    /// The object `decoder` is at; throws `dataCorrupted` naming the first unknown field.
    init(_ decoder: any Decoder, keyedBy _: Keys.Type) throws {
        container = try decoder.container(keyedBy: AnyCodingKey.self)
        present = container.allKeys
        for key in present where Keys(stringValue: key.stringValue) == nil {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "unknown field")
        }
    }

    /// The value of `key`, or `nil` when the object does not have it (or has `null`).
    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Keys) throws -> Value? {
        let name = key.stringValue
        guard let found = present.first(where: { $0.stringValue == name }) else { return nil }
        return try container.decodeIfPresent(type, forKey: found)
    }
}
