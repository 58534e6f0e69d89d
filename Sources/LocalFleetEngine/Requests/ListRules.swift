/// The rules of a ListVehicles request, as Fleet Engine applies them.
extension ListVehiclesRequest {
    /// The most `required_attributes` a request may name, as at Google.
    package static let maximumRequiredAttributes = 50

    /// Refuses a query that lacks the categories or has an invalid filter; `filter` and
    /// `viewport` are refused by name until the engine applies them, rather than ignored.
    package func validate() throws(InvalidArgument) {
        try requireKnownFields("the request")
        if !filter.isEmpty {
            throw InvalidArgument("filter is not supported by the local Fleet Engine's vehicle listing yet")
        }
        if hasViewport {
            throw InvalidArgument("viewport is not supported by the local Fleet Engine's vehicle listing yet")
        }
        guard !vehicleTypeCategories.isEmpty else {
            throw InvalidArgument("vehicleTypeCategories is required: name at least one (e.g. AUTO)")
        }
        for category in vehicleTypeCategories { try category.requireDefined("vehicleTypeCategories") }
        guard !vehicleTypeCategories.contains(.unknown) else {
            throw InvalidArgument("vehicleTypeCategories must not contain UNKNOWN")
        }
        guard pageSize >= 0 else { throw InvalidArgument("pageSize is \(pageSize); it must not be negative") }
        if hasMinimumCapacity, minimumCapacity.value < 0 {
            throw InvalidArgument("minimumCapacity is \(minimumCapacity.value); it must not be negative")
        }
        try TripType.requireSharedOrExclusive(tripTypes, "tripTypes")
        try vehicleState.requireDefined("vehicleState")
        if hasMaximumStaleness { try maximumStaleness.validateAsStaleness() }
        guard requiredAttributes.count <= Self.maximumRequiredAttributes else {
            throw InvalidArgument(
                "requiredAttributes has \(requiredAttributes.count) entries; at most \(Self.maximumRequiredAttributes) are allowed"
            )
        }
        for (field, lists) in [
            ("requiredAttributes", requiredAttributes), ("requiredOneOfAttributes", requiredOneOfAttributes),
            ("requiredOneOfAttributeSets", requiredOneOfAttributeSets),
        ] {
            for list in lists {
                let entries =
                    field == "requiredAttributes"
                    ? [Substring(list)] : list.split(separator: "|", omittingEmptySubsequences: false)
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
            if let text = attribute.textValue { return text == value }
            switch attribute.vehicleAttributeValue {
            case .boolValue(let flag): return String(flag) == value
            case .numberValue(let number): return Double(value) == number
            case .stringValue, nil: return false
            }
        }
    }
}
