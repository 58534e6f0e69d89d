/// Why a request is invalid: Fleet Engine's 400 `INVALID_ARGUMENT`, with a message that names
/// the field and the rule.
package struct InvalidArgument: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words.
    package let description: String

    /// An error with the given message.
    package init(_ description: String) {
        self.description = description
    }
}

extension InvalidArgument {
    /// `value` as given: `nil` when it is missing and `required` is false; refused, naming
    /// `field`, when it is missing and required.
    static func presence<Value>(of value: Value?, _ field: String, required: Bool) throws(InvalidArgument) -> Value? {
        if value == nil, required { throw InvalidArgument("\(field) is required") }
        return value
    }
}
