import FleetServerSupport

/// A resource that writes itself as a proto3 JSON object: fields in camelCase, unset fields
/// left out, enums by name, timestamps in RFC 3339.
///
/// Written by hand rather than through `JSONEncoder`, whose generic machinery cost more than
/// everything else in a location update put together.
public protocol ProtoJSONEncodable {
    /// Writes the object's fields, in order.
    func writeFields(to object: inout ProtoJSONObjectWriter)
}

extension ProtoJSONEncodable {
    /// The resource as proto3 JSON (UTF-8).
    public var protoJSON: [UInt8] {
        var writer = ProtoJSONObjectWriter()
        writer.writeObject(self)
        return writer.bytes
    }
}

/// Writes the fields of one JSON object after another, with the separators between them.
public struct ProtoJSONObjectWriter {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init() {
        bytes.reserveCapacity(512)
    }

    /// Writes `key: value` for a string.
    public mutating func field(_ key: some CodingKey, _ value: String?) {
        guard let value else { return }
        write(key)
        string(value)
    }

    /// Writes `key: value` for a number; never called with a number that is not finite (the
    /// rules refuse them before they are stored).
    public mutating func field(_ key: some CodingKey, _ value: Double?) {
        guard let value else { return }
        write(key)
        bytes.append(contentsOf: (value.isFinite ? value.description : "0").utf8)
    }

    /// Writes `key: value` for an integer.
    public mutating func field(_ key: some CodingKey, _ value: Int?) {
        guard let value else { return }
        write(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes `key: value` for a boolean.
    public mutating func field(_ key: some CodingKey, _ value: Bool?) {
        guard let value else { return }
        write(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes `key: "VALUE"` for an enum.
    public mutating func field<Value: ProtoEnum>(_ key: some CodingKey, _ value: Value?) {
        field(key, value?.rawValue)
    }

    /// Writes `key: "2026-11-21T16:30:00Z"` for a timestamp.
    public mutating func field(_ key: some CodingKey, _ value: ProtoTimestamp?) {
        guard let value else { return }
        write(key)
        bytes.append(UInt8(ascii: "\""))
        RFC3339.append(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes `key: {…}` for a nested object.
    public mutating func field(_ key: some CodingKey, _ value: (some ProtoJSONEncodable)?) {
        guard let value else { return }
        write(key)
        writeObject(value)
    }

    /// Writes `key: ["…", …]` for strings.
    public mutating func field(_ key: some CodingKey, _ values: [String]?) {
        array(key, values) { $0.string($1) }
    }

    /// Writes `key: ["A", …]` for enums.
    public mutating func field<Value: ProtoEnum>(_ key: some CodingKey, _ values: [Value]?) {
        field(key, values?.map(\.rawValue))
    }

    /// Writes `key: [{…}, …]` for nested objects.
    public mutating func field(_ key: some CodingKey, _ values: [some ProtoJSONEncodable]?) {
        array(key, values) { $0.writeObject($1) }
    }

    private mutating func array<Element>(_ key: some CodingKey, _ values: [Element]?, _ element: (inout Self, Element) -> Void) {
        guard let values else { return }
        write(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func writeObject(_ value: some ProtoJSONEncodable) {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        value.writeFields(to: &self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `"key":` (keys are proto field names in camelCase: nothing to escape).
    private mutating func write(_ key: some CodingKey) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        assert(!key.stringValue.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }, "a key that needs escaping")
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: key.stringValue.utf8)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func string(_ text: String) {
        JSONString.append(text, to: &bytes)
    }
}
