import FleetEngineProtos

/// A key and value a fleet attaches to a resource: on-demand's `VehicleAttribute`, delivery's
/// `DeliveryVehicleAttribute` and `TaskAttribute`, which share their rules.
protocol KeyedAttribute {
    /// The attribute's key.
    var key: String { get }
    /// The older untyped `value` (empty when not set, and on tasks, which have none).
    var legacyValue: String { get }
    /// The typed value of the `…_value` oneof, or `nil`.
    var typedValue: AttributeValue? { get }
    /// Whether an attribute may have no value at all (a task's is then the empty string).
    static var mayHaveNoValue: Bool { get }
}

/// The typed value of an attribute.
enum AttributeValue: Hashable {
    case text(String)
    case flag(Bool)
    case number(Double)
}

extension KeyedAttribute {
    /// The longest key or string value Fleet Engine accepts.
    static var maximumLength: Int { 256 }

    /// Refuses an empty or too long key, a key with `:`, a value that is not exactly one of the
    /// value fields (or none, where ``mayHaveNoValue``), a too long string or a number that is
    /// not finite; `field` names the attribute in messages.
    func validate(field: String) throws(InvalidArgument) {
        guard !key.isEmpty else { throw InvalidArgument("\(field).key is required") }
        guard key.count <= Self.maximumLength else {
            throw InvalidArgument("\(field).key is longer than \(Self.maximumLength) characters")
        }
        guard !key.contains(":") else { throw InvalidArgument("\(field).key '\(key)' contains ':'") }
        let values = (legacyValue.isEmpty ? 0 : 1) + (typedValue == nil ? 0 : 1)
        guard values == 1 || (values == 0 && Self.mayHaveNoValue) else {
            throw InvalidArgument(
                "\(field) must have exactly one value: value, stringValue, boolValue or numberValue (it has \(values))")
        }
        var text: String? { if case .text(let text) = typedValue { text } else { nil } }
        if legacyValue.count > Self.maximumLength || (text?.count ?? 0) > Self.maximumLength {
            throw InvalidArgument("\(field) has a string value longer than \(Self.maximumLength) characters")
        }
        if case .number(let number) = typedValue, !number.isFinite {
            throw InvalidArgument("\(field).numberValue is \(number); it must be a finite number")
        }
    }

    /// The value as a filter compares it (Google compares attributes as strings): the text,
    /// `true` or `false`, or the number as Swift writes it (`10.0` as `10`).
    var filterText: String {
        switch typedValue {
        case .text(let text): text
        case .flag(let flag): flag ? "true" : "false"
        case .number(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case nil: legacyValue
        }
    }

    /// Refuses more than `maximum` attributes, an invalid one, or a key given twice; `field`
    /// names the list in messages.
    static func validate(_ attributes: [Self], maximum: Int, field: String) throws(InvalidArgument) {
        guard attributes.count <= maximum else {
            throw InvalidArgument("\(field) has \(attributes.count) entries; at most \(maximum) are allowed")
        }
        var keys: Set<String> = []
        for (index, attribute) in attributes.enumerated() {
            try attribute.validate(field: "\(field)[\(index)]")
            guard keys.insert(attribute.key).inserted else {
                throw InvalidArgument("\(field) has the key '\(attribute.key)' twice")
            }
        }
    }
}

extension VehicleAttribute: KeyedAttribute {
    var legacyValue: String { value }
    var typedValue: AttributeValue? {
        switch vehicleAttributeValue {
        case .stringValue(let text): .text(text)
        case .boolValue(let flag): .flag(flag)
        case .numberValue(let number): .number(number)
        case nil: nil
        }
    }
    static var mayHaveNoValue: Bool { false }
}

extension Maps_Fleetengine_Delivery_V1_DeliveryVehicleAttribute: KeyedAttribute {
    var legacyValue: String { value }
    var typedValue: AttributeValue? {
        switch deliveryVehicleAttributeValue {
        case .stringValue(let text): .text(text)
        case .boolValue(let flag): .flag(flag)
        case .numberValue(let number): .number(number)
        case nil: nil
        }
    }
    static var mayHaveNoValue: Bool { false }
}

extension Maps_Fleetengine_Delivery_V1_TaskAttribute: KeyedAttribute {
    var legacyValue: String { "" }
    var typedValue: AttributeValue? {
        switch taskAttributeValue {
        case .stringValue(let text): .text(text)
        case .boolValue(let flag): .flag(flag)
        case .numberValue(let number): .number(number)
        case nil: nil
        }
    }
    static var mayHaveNoValue: Bool { true }
}
