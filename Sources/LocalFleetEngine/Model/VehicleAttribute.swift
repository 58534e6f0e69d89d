/// A key and value the fleet attaches to a vehicle (`VehicleAttribute`). The value is one of
/// `stringValue`, `boolValue` or `numberValue` (or the older `value`, a string).
package struct VehicleAttribute: Sendable, Hashable {
    /// The key; no `:` and at most 256 characters.
    package var key: String
    /// The value, as a string (deprecated by Google in favour of ``stringValue``).
    package var value: String?
    /// A string value.
    package var stringValue: String?
    /// A boolean value.
    package var boolValue: Bool?
    /// A number value.
    package var numberValue: Double?

    /// An attribute with the older text `value`, or with none yet.
    init(key: String, value: String?) {
        self.key = key
        self.value = value
    }

    /// Creates a string attribute.
    package init(key: String, stringValue: String) {
        self.key = key
        self.stringValue = stringValue
    }

    /// The longest key or string value Fleet Engine accepts.
    package static let maximumLength = 256

    /// Refuses an empty or too long key, a key with `:`, a value that is not exactly one of the
    /// value fields, a too long string or a number that is not finite.
    package func validate(field: String) throws(InvalidArgument) {
        guard !key.isEmpty else { throw InvalidArgument("\(field).key is required") }
        guard key.count <= Self.maximumLength else { throw InvalidArgument("\(field).key is longer than \(Self.maximumLength) characters") }
        guard !key.contains(":") else { throw InvalidArgument("\(field).key '\(key)' contains ':'") }
        let values = [value != nil, stringValue != nil, boolValue != nil, numberValue != nil].filter { $0 }.count
        guard values == 1 else {
            throw InvalidArgument("\(field) must have exactly one of value, stringValue, boolValue, numberValue (it has \(values))")
        }
        for text in [value, stringValue].compactMap({ $0 }) where text.count > Self.maximumLength {
            throw InvalidArgument("\(field) has a string value longer than \(Self.maximumLength) characters")
        }
        if let numberValue, !numberValue.isFinite {
            throw InvalidArgument("\(field).numberValue is \(numberValue); it must be a finite number")
        }
    }
}
