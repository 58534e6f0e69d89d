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
