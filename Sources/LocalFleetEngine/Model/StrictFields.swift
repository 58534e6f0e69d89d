/// A coding key for any field name, to list every field an object carries.
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

extension Decoder {
    /// Fails when the JSON object being decoded has a field that `Keys` does not name, as
    /// Google's proto3 JSON parser does ("unknown field"), instead of silently dropping it.
    func rejectUnknownFields<Keys: CodingKey>(_: Keys.Type) throws {
        let container = try container(keyedBy: AnyCodingKey.self)
        for key in container.allKeys where Keys(stringValue: key.stringValue) == nil {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "unknown field")
        }
    }
}
