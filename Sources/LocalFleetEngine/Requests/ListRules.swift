/// The rules of a ListVehicles request, as Fleet Engine applies them.
extension ListVehiclesQuery {
    /// The most `required_attributes` a request may name, as at Google.
    package static let maximumRequiredAttributes = 50

    /// Refuses a query that lacks the categories or has an invalid filter.
    package func validate() throws(InvalidArgument) {
        guard !vehicleTypeCategories.isEmpty else { throw InvalidArgument("vehicleTypeCategories is required: name at least one (e.g. AUTO)") }
        guard !vehicleTypeCategories.contains(.unknown) else { throw InvalidArgument("vehicleTypeCategories must not contain UNKNOWN") }
        guard pageSize >= 0 else { throw InvalidArgument("pageSize is \(pageSize); it must not be negative") }
        if let minimumCapacity, minimumCapacity < 0 {
            throw InvalidArgument("minimumCapacity is \(minimumCapacity); it must not be negative")
        }
        if let maximumStaleness, maximumStaleness <= .zero { throw InvalidArgument("maximumStaleness must be a positive duration") }
        if let maximumStaleness, maximumStaleness >= .maximumStaleness { throw InvalidArgument("maximumStaleness must be less than 100000000000s") }
        guard requiredAttributes.count <= Self.maximumRequiredAttributes else {
            throw InvalidArgument("requiredAttributes has \(requiredAttributes.count) entries; at most \(Self.maximumRequiredAttributes) are allowed")
        }
        for (field, lists) in [("requiredAttributes", requiredAttributes), ("requiredOneOfAttributes", requiredOneOfAttributes),
                               ("requiredOneOfAttributeSets", requiredOneOfAttributeSets)] {
            for list in lists {
                let entries = field == "requiredAttributes" ? [Substring(list)] : list.split(separator: "|", omittingEmptySubsequences: false)
                for entry in entries where AttributeRequirement(entry) == nil {
                    throw InvalidArgument("\(field) has '\(entry)'; each entry must be key:value")
                }
            }
        }
    }
}

/// One `key:value` an attribute filter asks for.
struct AttributeRequirement: Hashable {
    let key: String
    let value: String

    /// The requirement `key:value`, or `nil` when `text` has no `:` or an empty key.
    init?(_ text: Substring) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        key = String(text[..<colon])
        value = String(text[text.index(after: colon)...])
    }

    /// Whether `attributes` hold this key with this value (by its text, number or truth).
    func isMet(by attributes: [VehicleAttribute]) -> Bool {
        attributes.contains { attribute in
            guard attribute.key == key else { return false }
            if let text = attribute.stringValue ?? attribute.value { return text == value }
            if let flag = attribute.boolValue { return String(flag) == value }
            if let number = attribute.numberValue { return Double(value) == number }
            return false
        }
    }
}
