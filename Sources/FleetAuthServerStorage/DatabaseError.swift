/// Why a database could not be opened or used; its message never contains a password.
package struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in words.
    package let description: String

    /// An error with the given message.
    package init(_ description: String) {
        self.description = description
    }
}
